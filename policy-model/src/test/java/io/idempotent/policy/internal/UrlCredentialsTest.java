package io.idempotent.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * The one masking rule for credentials in JDBC URLs, as a table: each row is a URL (or a driver's
 * text quoting one) and what logs and messages show of it. The next way to write a password into
 * a URL is one row.
 */
class UrlCredentialsTest {

    private record Row(String given, String shown) {
    }

    private static final List<Row> CARRY_A_PASSWORD = List.of(
            new Row("jdbc:postgresql://db/app?user=a&password=s3cr3t", "jdbc:postgresql://db/app?user=a&password=***"),
            new Row("jdbc:postgresql://db/app?user=a&PASSWORD=s3cr3t", "jdbc:postgresql://db/app?user=a&PASSWORD=***"),
            new Row("jdbc:postgresql://db/app?Password=s3cr3t&ssl=true", "jdbc:postgresql://db/app?Password=***&ssl=true"),
            new Row("jdbc:postgresql://db/app?PWD=s3cr3t", "jdbc:postgresql://db/app?PWD=***"),
            new Row("jdbc:postgresql://db/app?ssl=true&sslpassword=s3cr3t",
                    "jdbc:postgresql://db/app?ssl=true&sslpassword=***"),
            new Row("jdbc:postgresql://db/app?SSLPassword=s3cr3t&sslmode=verify-full",
                    "jdbc:postgresql://db/app?SSLPassword=***&sslmode=verify-full"),
            new Row("jdbc:h2:file:/x;USER=sa;PASSWORD=s3cr3t;WRITE_DELAY=0",
                    "jdbc:h2:file:/x;USER=sa;PASSWORD=***;WRITE_DELAY=0"),
            new Row("jdbc:h2:file:/x;password=s3cr3t", "jdbc:h2:file:/x;password=***"),
            new Row("jdbc:postgresql://a:s3cr3t@db/app?password=t&ssl=true",
                    "jdbc:postgresql://a:***@db/app?password=***&ssl=true"),
            new Row("jdbc:postgresql://user:p@ss/w@host/db", "jdbc:postgresql://user:***@host/db"),
            new Row("jdbc:postgresql://user:p@ss/w@host:5432/db?ssl=true", "jdbc:postgresql://user:***@host:5432/db?ssl=true"),
            new Row("jdbc:postgresql://me@corp:s3cr3t@host/db", "jdbc:postgresql://me@corp:***@host/db"),
            new Row("Failed to get driver instance for jdbcUrl=jdbc:postgresql://u:s3cr3t@db/app",
                    "Failed to get driver instance for jdbcUrl=jdbc:postgresql://u:***@db/app"),
            new Row("URL format error; must be \"jdbc:h2:...\" but is \"jdbc:h2:file:/x;PASSWORD=s3cr3t\" [90046-232]",
                    "URL format error; must be \"jdbc:h2:...\" but is \"jdbc:h2:file:/x;PASSWORD=***"),
            new Row("connect to jdbc:postgresql://u:s3cr3t@db/app failed: refused",
                    "connect to jdbc:postgresql://u:***@db/app failed: refused"));

    private static final List<String> CARRY_NONE = List.of(
            "jdbc:postgresql://h1:5432,h2:5432/app?targetServerType=primary",
            "jdbc:h2:file:./.idempotent/operations;AUTO_SERVER=TRUE",
            "jdbc:postgresql://db/app?user=bob&passwordless=true",
            "jdbc:postgresql://db:5432/app?ApplicationName=a@b",
            "jdbc:h2:tcp://localhost:9092/~/ops;USER=app",
            "password authentication failed for user \"app\"");

    @Test
    void everyPasswordInAUrlIsFoundAndMasked() {
        SoftAssertions softly = new SoftAssertions();
        for (Row row : CARRY_A_PASSWORD) {
            softly.assertThat(UrlCredentials.contain(row.given())).as("contain: " + row.given()).isTrue();
            softly.assertThat(UrlCredentials.mask(row.given())).as("mask: " + row.given()).isEqualTo(row.shown())
                    .doesNotContain("s3cr3t").doesNotContain("p@ss");
        }
        for (String url : CARRY_NONE) {
            softly.assertThat(UrlCredentials.contain(url)).as("contain: " + url).isFalse();
            softly.assertThat(UrlCredentials.mask(url)).as("mask: " + url).isEqualTo(url);
        }
        softly.assertAll();
    }

    @Test
    void aDriversTextQuotingAPieceOfTheUrlIsMaskedByTheUrlsPasswords() {
        String url = "jdbc:postgresql://app:s3cr3t@db/app?sslpassword=k3y-pw";
        // What the PostgreSQL driver says of user-info it reads as a host name.
        assertThat(UrlCredentials.maskIn("java.net.UnknownHostException: app:s3cr3t@db", url))
                .isEqualTo("java.net.UnknownHostException: app:***@db");
        assertThat(UrlCredentials.maskIn("cannot read the key with k3y-pw", url)).isEqualTo("cannot read the key with ***");
        assertThat(UrlCredentials.maskIn("Connection to db:5432 refused", url)).isEqualTo("Connection to db:5432 refused");
        assertThat(UrlCredentials.maskIn(null, url)).isNull();
    }
}
