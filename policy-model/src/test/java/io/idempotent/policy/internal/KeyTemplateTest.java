package io.idempotent.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The key grammar at its edges, pinned where it lives: the processor and {@code ToolPolicy.Builder}
 * both accept exactly what {@link KeyTemplate} accepts, so a change here changes what builds.
 */
class KeyTemplateTest {

    private static KeyTemplate.Piece literal(String text) {
        return new KeyTemplate.Piece(text, null);
    }

    private static KeyTemplate.Piece placeholder(String text, String... segments) {
        return new KeyTemplate.Piece(null, new KeyTemplate.Placeholder(text, List.of(segments)));
    }

    @Test
    void literalsAndPlaceholdersAlternateInOrder() {
        KeyTemplate parsed = KeyTemplate.parse("refund:{invoiceId}:{approval.id}!");
        assertThat(parsed.problem()).isNull();
        assertThat(parsed.hasPlaceholder()).isTrue();
        assertThat(parsed.pieces()).containsExactly(literal("refund:"), placeholder("invoiceId", "invoiceId"),
                literal(":"), placeholder("approval.id", "approval", "id"), literal("!"));
    }

    @Test
    void adjacentPlaceholdersHaveNoEmptyLiteralBetweenThem() {
        assertThat(KeyTemplate.parse("{a}{b}").pieces()).containsExactly(placeholder("a", "a"), placeholder("b", "b"));
        assertThat(KeyTemplate.parse("{step}").pieces()).containsExactly(placeholder("step", "step"));
    }

    @Test
    void aPlaceholdersTextAndSegmentsAreStripped() {
        assertThat(KeyTemplate.parse("x{ invoice . id }").pieces())
                .containsExactly(literal("x"), placeholder("invoice . id", "invoice", "id"));
    }

    @Test
    void aTemplateWithoutPlaceholdersIsOneLiteral() {
        KeyTemplate parsed = KeyTemplate.parse("fixed");
        assertThat(parsed.problem()).isNull();
        assertThat(parsed.pieces()).containsExactly(literal("fixed"));
        assertThat(parsed.hasPlaceholder()).isFalse();
        assertThat(KeyTemplate.parse("").pieces()).isEmpty();
    }

    @Test
    void eachBraceProblemIsNamedWithItsIndexAndLeavesNoPieces() {
        assertProblem("ab}c", "an unmatched '}' at index 2");
        assertProblem("a{b", "an unclosed '{' at index 1");
        assertProblem("a{b{c}}", "a '{' inside a placeholder at index 3");
        assertProblem("ab{}", "an empty placeholder {} at index 2");
        assertProblem("ab{  }", "an empty placeholder {} at index 2");
        assertProblem("{a.}", "an empty accessor in {a.}");
        assertProblem("{.a}", "an empty accessor in {.a}");
        assertProblem("{a. .b}", "an empty accessor in {a. .b}");
        // A problem after a good placeholder still discards what was parsed before it.
        assertProblem("{a}:}", "an unmatched '}' at index 4");
    }

    @Test
    void aBraceAfterAClosedPlaceholderIsNotNested() {
        KeyTemplate parsed = KeyTemplate.parse("{a}-{b}");
        assertThat(parsed.problem()).isNull();
        assertThat(parsed.pieces()).hasSize(3);
    }

    private static void assertProblem(String template, String problem) {
        KeyTemplate parsed = KeyTemplate.parse(template);
        assertThat(parsed.problem()).isEqualTo(problem);
        assertThat(parsed.pieces()).isEmpty();
        assertThat(parsed.hasPlaceholder()).isFalse();
    }

    @Test
    void theStepIsTheFirstSegmentWhateverFollows() {
        assertThat(KeyTemplate.namesStep("step")).isTrue();
        assertThat(KeyTemplate.namesStep("step.id")).isTrue();
        assertThat(KeyTemplate.namesStep(" step ")).isTrue();
        assertThat(KeyTemplate.namesStep("step .x")).isTrue();
        assertThat(KeyTemplate.namesStep("steps")).isFalse();
        assertThat(KeyTemplate.namesStep("invoice.step")).isFalse();
        assertThat(KeyTemplate.namesStep("mystep")).isFalse();
    }

    @Test
    void emptyMeansNullOrBlank() {
        assertThat(KeyTemplate.isEmpty(null)).isTrue();
        assertThat(KeyTemplate.isEmpty("")).isTrue();
        assertThat(KeyTemplate.isEmpty(" \t")).isTrue();
        assertThat(KeyTemplate.isEmpty("{a}")).isFalse();
    }

    @Test
    void controlCharactersAreFoundAnywhere() {
        assertThat(KeyTemplate.hasControlCharacter("{a}\n")).isTrue();
        assertThat(KeyTemplate.hasControlCharacter("\u0000{a}")).isTrue();
        assertThat(KeyTemplate.hasControlCharacter("{a}\u007f")).isTrue();
        assertThat(KeyTemplate.hasControlCharacter("{a} b")).isFalse();
    }

    @Test
    void problemOfNamesTheFirstProblemInItsOrder() {
        assertThat(KeyTemplate.problemOf(null)).isEqualTo("key is empty");
        assertThat(KeyTemplate.problemOf("  ")).isEqualTo("key is empty");
        // A control character is reported before the braces, and shown as '?' so no message carries it.
        assertThat(KeyTemplate.problemOf("a\n{b")).isEqualTo("key \"a?{b\" contains a control character");
        assertThat(KeyTemplate.problemOf("a{b")).isEqualTo("key \"a{b\" has an unclosed '{' at index 1");
        assertThat(KeyTemplate.problemOf("refund"))
                .isEqualTo("key \"refund\" has no placeholder, so every call would be the same operation");
        assertThat(KeyTemplate.problemOf("refund:{invoiceId}")).isNull();
    }

    @Test
    void theStepNamesAreTheRuntimesAndTheGatesOwn() {
        assertThat(KeyTemplate.STEP).isEqualTo("step");
        assertThat(KeyTemplate.STEP_CONTEXT_ENTRY).isEqualTo("io.idempotent/step");
    }
}
