package good;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import java.math.BigDecimal;
import java.math.BigInteger;
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
import java.time.ZoneOffset;
import java.util.UUID;

/** A key part of every type whose text form is stable, directly and at the end of an accessor chain. */
public class KeyTypes {

    public enum Region {
        EU {
            @Override
            public String toString() {
                return "Europe";
            }
        },
        US
    }

    public record Order(String id, Region region, BigDecimal total) {
    }

    @IdempotentTool(key = "t:{s}:{cs}:{c}:{b}:{sh}:{i}:{l}:{boxed}:{big}:{flag}:{region}:{id}:{amount}:{at}:{day}"
            + ":{dayTime}:{time}:{offsetAt}:{offsetTime}:{month}:{year}:{monthDay}:{duration}:{period}"
            + ":{order.region}:{order.total}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String everyType(String s, CharSequence cs, char c, byte b, short sh, int i, long l, Long boxed,
            BigInteger big, boolean flag, Region region, UUID id, BigDecimal amount, Instant at, LocalDate day,
            LocalDateTime dayTime, LocalTime time, OffsetDateTime offsetAt, OffsetTime offsetTime, YearMonth month,
            Year year, MonthDay monthDay, Duration duration, Period period, Order order) {
        return "ok";
    }

    /** The arguments of one call of {@link #everyType}. */
    public static Object[] sample() {
        return new Object[] {"inv 842", new StringBuilder("sb"), 'x', (byte) -1, (short) 3, 42, -7L, 9L,
                new BigInteger("123456789012345678901234567890"), true, Region.EU,
                UUID.fromString("123E4567-E89B-12D3-A456-426614174000"), new BigDecimal("12.50"),
                Instant.parse("2026-12-03T10:15:30Z"), LocalDate.of(2026, 12, 3), LocalDateTime.of(2026, 12, 3, 10, 15),
                LocalTime.of(10, 15, 30, 500_000_000), OffsetDateTime.of(2026, 12, 3, 10, 15, 0, 0, ZoneOffset.ofHours(1)),
                OffsetTime.of(10, 15, 0, 0, ZoneOffset.UTC), YearMonth.of(2026, 12), Year.of(2026), MonthDay.of(12, 3),
                Duration.ofMinutes(90), Period.ofDays(14), new Order("o1", Region.EU, new BigDecimal("1E+3"))};
    }
}
