package io.idempotent.it.probe;

import io.idempotent.it.absent.OptionalDependencyTools;
import io.idempotent.runtime.IdempotencyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The main class of the forked JVMs, started with {@code -javaagent:} on the built agent jar. It
 * calls {@link ProbeTools#charge} plainly, as an application would: it never touches the runtime,
 * so whatever protocol runs around the call is the agent's doing. Every outcome is printed as a
 * line {@code OUTCOME <label> RESULT <value>} or {@code OUTCOME <label> THROWN <class> <message>},
 * and the last line reports the agent's counters: {@code AGENT transformed=<n> errors=<n>}.
 *
 * <p>Commands: {@code call ORDER AMOUNT TIMES}, {@code race ORDER AMOUNT THREADS},
 * {@code await-go GOFILE ORDER AMOUNT}, {@code halt ORDER AMOUNT}, {@code hold ORDER AMOUNT} (the body holds
 * the key after its effect until the JVM is killed), {@code approval ORDER AMOUNT TIMES}
 * (calls {@link ProbeTools#approvedCharge}, which needs approval; an answer that is an
 * {@code IdempotencyException} is followed by {@code RETRYABLE <label> <true|false>}), {@code receipt ORDER TIMES}
 * (calls {@link OptionalDependencyTools#receipt}), {@code async COMMAND ORDER AMOUNT} (the
 * asynchronous tools, {@link AsyncProbe}).
 */
public final class AgentProbe {

    private AgentProbe() {
    }

    public static void main(String[] args) throws Exception {
        ProbeTools tools = new ProbeTools();
        switch (args[0]) {
            case "call" -> {
                for (int i = 1; i <= Integer.parseInt(args[3]); i++) {
                    call(tools, "call-" + i, args[1], Long.parseLong(args[2]));
                }
            }
            case "race" -> race(tools, args[1], Long.parseLong(args[2]), Integer.parseInt(args[3]));
            case "await-go" -> {
                Path go = Path.of(args[1]);
                System.out.println("READY");
                System.out.flush();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!Files.exists(go)) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("no go file " + go);
                    }
                    // A poll with a deadline: the test creates the file once every JVM is ready.
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
                }
                call(tools, "go", args[2], Long.parseLong(args[3]));
            }
            case "halt" -> {
                ProbeHooks.haltAfterEffect();
                call(tools, "halt", args[1], Long.parseLong(args[2]));
            }
            case "hold" -> {
                ProbeHooks.holdUntilKilled();
                call(tools, "hold", args[1], Long.parseLong(args[2]));
            }
            case "approval" -> {
                for (int i = 1; i <= Integer.parseInt(args[3]); i++) {
                    approval(tools, "approval-" + i, args[1], Long.parseLong(args[2]));
                }
            }
            case "receipt" -> {
                for (int i = 1; i <= Integer.parseInt(args[2]); i++) {
                    receipt("receipt-" + i, args[1]);
                }
            }
            case "async" -> AsyncProbe.main(java.util.Arrays.copyOfRange(args, 1, args.length));
            default -> throw new IllegalArgumentException("unknown command " + args[0]);
        }
        reportAgent();
    }

    /** {@code threads} callers released at once; the winner's body holds the key until the others answered. */
    private static void race(ProbeTools tools, String order, long amount, int threads) throws Exception {
        CountDownLatch othersAnswered = new CountDownLatch(threads - 1);
        ProbeHooks.holdUntil(othersAnswered);
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Thread> racers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            String label = "racer-" + i;
            Thread t = new Thread(() -> {
                try {
                    start.await(30, TimeUnit.SECONDS);
                } catch (Exception e) {
                    System.out.println("OUTCOME " + label + " THROWN barrier " + e);
                    return;
                }
                boolean executed = call(tools, label, order, amount);
                if (!executed) {
                    othersAnswered.countDown();
                }
            }, label);
            racers.add(t);
            t.start();
        }
        for (Thread t : racers) {
            t.join(TimeUnit.SECONDS.toMillis(90));
        }
    }

    /** Calls the tool and prints the outcome; true when this call ran the body. */
    private static boolean call(ProbeTools tools, String label, String order, long amount) {
        try {
            String result = tools.charge(order, amount);
            print("OUTCOME " + label + " RESULT " + result);
            return ProbeHooks.takeRanInThisThread();
        } catch (RuntimeException e) {
            String message = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
            print("OUTCOME " + label + " THROWN " + e.getClass().getName() + " " + message);
            return false;
        }
    }

    /** Calls the tool that needs approval and prints the outcome, and whether an answer of the runtime is retryable. */
    private static void approval(ProbeTools tools, String label, String order, long amount) {
        try {
            print("OUTCOME " + label + " RESULT " + tools.approvedCharge(order, amount));
        } catch (RuntimeException e) {
            String message = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
            print("OUTCOME " + label + " THROWN " + e.getClass().getName() + " " + message);
            if (e instanceof IdempotencyException answer) {
                print("RETRYABLE " + label + " " + answer.retryable());
            }
        }
    }

    /** Calls the tool whose return type may be absent; an {@code Error} is an outcome too. */
    private static void receipt(String label, String order) {
        try {
            Object receipt = new OptionalDependencyTools().receipt(order);
            print("OUTCOME " + label + " RESULT " + receipt);
        } catch (Throwable e) {
            String message = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
            print("OUTCOME " + label + " THROWN " + e.getClass().getName() + " " + message);
        }
    }

    private static synchronized void print(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /** The agent's counters, read by name: the agent's classes are on the system class path only because of -javaagent. */
    private static void reportAgent() {
        try {
            Class<?> status = Class.forName("io.idempotent.agent.AgentStatus", true, ClassLoader.getSystemClassLoader());
            print("AGENT transformed=" + status.getMethod("transformedClasses").invoke(null) + " errors="
                    + status.getMethod("transformationErrors").invoke(null));
        } catch (ReflectiveOperationException e) {
            print("AGENT missing " + e);
        }
    }
}
