package io.idempotent.runtime.binding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.runtime.InvalidOperationKeyException;
import io.idempotent.runtime.MissingOperationKeyException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Every key part type has one documented text form, the same on every JVM; others are refused. */
class KeyPartsTest {

    enum Region {
        EU {
            @Override
            public String toString() {
                return "Europe";
            }
        },
        US
    }

    private static String text(Object value) {
        return KeyParts.text("refund", "part", value);
    }

    @Test
    void stringsAndCharactersAreThemselves() {
        assertThat(text("inv 842")).isEqualTo("inv 842");
        assertThat(text(new StringBuilder("sb"))).isEqualTo("sb");
        assertThat(text('x')).isEqualTo("x");
    }

    @Test
    void integralNumbersAreDecimal() {
        assertThat(text(42)).isEqualTo("42");
        assertThat(text(-7L)).isEqualTo("-7");
        assertThat(text((short) 3)).isEqualTo("3");
        assertThat(text((byte) -1)).isEqualTo("-1");
        assertThat(text(Long.MIN_VALUE)).isEqualTo("-9223372036854775808");
        assertThat(text(new BigInteger("123456789012345678901234567890"))).isEqualTo("123456789012345678901234567890");
    }

    @Test
    void booleansAreTrueOrFalse() {
        assertThat(text(true)).isEqualTo("true");
        assertThat(text(Boolean.FALSE)).isEqualTo("false");
    }

    @Test
    void enumsAreTheirNameNotTheirToString() {
        assertThat(text(Region.EU)).isEqualTo("EU");
        assertThat(text(Region.US)).isEqualTo("US");
        assertThat(text(DayOfWeek.MONDAY)).isEqualTo("MONDAY");
    }

    @Test
    void uuidsAreLowerCaseCanonical() {
        assertThat(text(UUID.fromString("123E4567-E89B-12D3-A456-426614174000")))
                .isEqualTo("123e4567-e89b-12d3-a456-426614174000");
    }

    @Test
    void bigDecimalsHaveOneFormPerNumericValue() {
        assertThat(text(new BigDecimal("12.50"))).isEqualTo("12.5");
        assertThat(text(new BigDecimal("12.5"))).isEqualTo("12.5");
        assertThat(text(new BigDecimal("1E+3"))).isEqualTo("1000");
        assertThat(text(new BigDecimal("1000.000"))).isEqualTo("1000");
        assertThat(text(new BigDecimal("0.00"))).isEqualTo("0");
        assertThat(text(new BigDecimal("-0.000120"))).isEqualTo("-0.00012");
    }

    @Test
    void bigDecimalsWhosePlainFormWouldNotFitAKeyAreRefusedWithoutBuildingIt() {
        assertThatThrownBy(() -> text(new BigDecimal("1E-400000000")))
                .isInstanceOf(InvalidOperationKeyException.class).hasMessageContaining("{part}")
                .hasMessageContaining("refund");
        assertThatThrownBy(() -> text(new BigDecimal("1E+400000000")))
                .isInstanceOf(InvalidOperationKeyException.class);
    }

    @Test
    void javaTimeValuesAreIso8601() {
        assertThat(text(Instant.parse("2026-12-03T10:15:30Z"))).isEqualTo("2026-12-03T10:15:30Z");
        assertThat(text(Instant.parse("2026-12-03T10:15:30.500Z"))).isEqualTo("2026-12-03T10:15:30.500Z");
        assertThat(text(LocalDate.of(2026, 12, 3))).isEqualTo("2026-12-03");
        assertThat(text(LocalDateTime.of(2026, 12, 3, 10, 15))).isEqualTo("2026-12-03T10:15:00");
        assertThat(text(LocalTime.of(10, 15))).isEqualTo("10:15:00");
        assertThat(text(LocalTime.of(10, 15, 30, 500_000_000))).isEqualTo("10:15:30.5");
        assertThat(text(OffsetDateTime.of(2026, 12, 3, 10, 15, 0, 0, ZoneOffset.ofHours(1))))
                .isEqualTo("2026-12-03T10:15:00+01:00");
        assertThat(text(OffsetDateTime.of(2026, 12, 3, 10, 15, 0, 0, ZoneOffset.UTC)))
                .isEqualTo("2026-12-03T10:15:00Z");
        assertThat(text(OffsetTime.of(10, 15, 0, 0, ZoneOffset.ofHours(-5)))).isEqualTo("10:15:00-05:00");
        assertThat(text(YearMonth.of(2026, 12))).isEqualTo("2026-12");
        assertThat(text(Year.of(2026))).isEqualTo("2026");
        assertThat(text(MonthDay.of(12, 3))).isEqualTo("--12-03");
        assertThat(text(Duration.ofMinutes(90))).isEqualTo("PT1H30M");
        assertThat(text(Period.ofDays(14))).isEqualTo("P14D");
        assertThat(text(Period.ofMonths(12))).isEqualTo("P12M");
    }

    @Test
    void typesWithoutAStableTextFormAreRefused() {
        assertThatThrownBy(() -> text(new byte[] {1, 2})).isInstanceOf(InvalidOperationKeyException.class)
                .hasMessageContaining("{part}").hasMessageContaining("byte[]");
        assertThatThrownBy(() -> text(Set.of("a", "b"))).isInstanceOf(InvalidOperationKeyException.class);
        assertThatThrownBy(() -> text(List.of("a"))).isInstanceOf(InvalidOperationKeyException.class);
        assertThatThrownBy(() -> text(0.1d)).isInstanceOf(InvalidOperationKeyException.class)
                .hasMessageContaining("BigDecimal");
        assertThatThrownBy(() -> text(0.1f)).isInstanceOf(InvalidOperationKeyException.class);
        assertThatThrownBy(() -> text(new Object())).isInstanceOf(InvalidOperationKeyException.class);
        assertThatThrownBy(() -> text(ZonedDateTime.of(2026, 12, 3, 10, 15, 0, 0, ZoneId.of("Europe/Paris"))))
                .isInstanceOf(InvalidOperationKeyException.class).hasMessageContaining("OffsetDateTime");
    }

    @Test
    void aNullPartIsAMissingKey() {
        assertThatThrownBy(() -> text(null)).isInstanceOf(MissingOperationKeyException.class)
                .hasMessageContaining("{part} is null")
                .satisfies(e -> assertThat(((MissingOperationKeyException) e).stepMissing()).isFalse());
    }

    @Test
    void noStepIsAMissingKeyThatSaysTheStepIsMissing() {
        // What an MCP server answers as missing_step; Java callers keep the type and its text.
        assertThatThrownBy(() -> KeyParts.step("refund")).isInstanceOf(MissingOperationKeyException.class)
                .hasMessageContaining("the key needs {step}, but no step is set on this thread")
                .satisfies(e -> assertThat(((MissingOperationKeyException) e).stepMissing()).isTrue());
        assertThatThrownBy(() -> KeyParts.step("refund", "request", null))
                .satisfies(e -> assertThat(((MissingOperationKeyException) e).stepMissing()).isTrue());
    }

    @Test
    void stepIsNeverReadFromAnArgument() {
        // A binding written before the gate refused a parameter named step rendered the model's argument
        // in place of the workflow's step; it is refused at the call now, before anything is claimed.
        assertThatThrownBy(() -> KeyParts.text("refund", "step", "chosen_by_the_model"))
                .isInstanceOf(InvalidOperationKeyException.class).hasMessageContaining("tool refund")
                .hasMessageContaining("{step} is the workflow's step").hasMessageContaining("rename the parameter");
        assertThatThrownBy(() -> KeyParts.text("refund", "step.id", "chosen_by_the_model"))
                .isInstanceOf(InvalidOperationKeyException.class).hasMessageContaining("{step.id}");
        assertThat(KeyParts.text("refund", "stepName", "s1")).isEqualTo("s1");
    }
}
