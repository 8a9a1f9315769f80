package org.brokerapp.infra.cli;

import java.io.PrintWriter;

import org.brokerapp.infra.host.StackException;
import org.brokerapp.regions.BuildVersion;
import picocli.CommandLine;

/**
 * The conventions of the project's command lines (picocli): {@code --opt value} and
 * {@code --opt=value} alike; {@code --help} on every command prints its usage and exits 0; a usage
 * mistake is one line on stderr naming it, and exit 2; a failure while running (a
 * {@link StackException} and the like: something the person can act on) is one line and exit 1;
 * anything else is a bug and shows its stack trace.
 */
public final class CliConventions {

    public static final int USAGE = CommandLine.ExitCode.USAGE;
    public static final int FAILED = CommandLine.ExitCode.SOFTWARE;

    private CliConventions() {
    }

    /** {@code -h}/{@code --help} and {@code --version} for a command: {@code @Mixin CliConventions.Help help;}. */
    public static final class Help {
        @CommandLine.Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
        boolean help;

        @CommandLine.Option(names = "--version", versionHelp = true, description = "show the version and exit")
        boolean version;
    }

    /** Runs {@code command} (a picocli {@code @Command}) on {@code args}; returns the exit code. */
    public static int execute(String name, Object command, PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(command);
        cli.getCommandSpec().version(BuildVersion.line(name));
        cli.getSubcommands().values().forEach(sub -> sub.getCommandSpec().version(BuildVersion.line(name)));
        cli.setOut(out)
                .setErr(err)
                .setParameterExceptionHandler((e, ignored) -> {
                    err.println(name + ": " + e.getMessage() + " (see '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help')");
                    err.flush();
                    return USAGE;
                })
                .setExecutionExceptionHandler((e, ignored, parsed) -> {
                    if (e instanceof IllegalArgumentException || e instanceof IllegalStateException || e instanceof StackException) {
                        err.println(name + ": " + e.getMessage());
                        err.flush();
                        return FAILED;
                    }
                    throw e;
                });
        int exit = cli.execute(args);
        out.flush();
        return exit;
    }

    /** As {@link #execute(String, Object, PrintWriter, PrintWriter, String...)} on the process's own stdout and stderr. */
    public static int execute(String name, Object command, String... args) {
        return execute(name, command, new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
    }
}
