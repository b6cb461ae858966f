// Command boardsat solves chess-board constraint puzzles two independent
// ways, by native search and by SAT encoding, and compares, benchmarks and
// reports on them. Run "boardsat help" for the subcommands.
//
// Exit status (one table, package answer's Exit* constants, and
// docs/contract.md): 0 answered, 1 a disagreement, a wrong answer or a
// failed backend, 2 bad input, a refusal or any error writing a file (one
// line on stderr names the problem), 3 timeout, 4 memout, 130 interrupted.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/boardsat/boardsat/answer"
	_ "github.com/boardsat/boardsat/brute"  // registers the brute-force backend check
	_ "github.com/boardsat/boardsat/encode" // registers the sat backends
	"github.com/boardsat/boardsat/encode/sat"
	"github.com/boardsat/boardsat/internal/atomicfile"
	_ "github.com/boardsat/boardsat/native"            // registers the native backend
	_ "github.com/boardsat/boardsat/paradigm/cpsolve"  // registers the cp backend
	_ "github.com/boardsat/boardsat/paradigm/mipsolve" // registers the mip backend
	"github.com/boardsat/boardsat/puzzle"
)

// command is one subcommand. run returns a usageError for bad input, an
// exitError to choose the status, or any other error (status 1).
type command struct {
	summary string
	run     func(args []string, stdout io.Writer) error
}

// commands holds the subcommands; each file adds its own from init.
var commands = map[string]command{}

// help is a subcommand's own documentation for "boardsat NAME -h": its
// usage lines (naming its arguments), what the arguments are, and
// examples. Each file registers its commands' help in helps from init,
// keyed by the flag set's name ("solve", "results plot").
type help struct {
	usage    []string // after "boardsat "
	about    string   // the arguments and behaviour, a few lines
	specs    bool     // list every puzzle's spec syntax after about
	examples []string // command lines, after "boardsat "

	// extra prints more lines after about when the help is printed: lists
	// read from a registry then, so that a new family shows up in them.
	extra func(w io.Writer)
}

// printSpecs lists the spec syntax of every registered puzzle, so a new
// family shows up in every help that takes a SPEC.
func printSpecs(w io.Writer) {
	fmt.Fprintln(w, "\nspecs (docs/specs.md gives each puzzle's conventions):")
	for _, name := range puzzle.Puzzles {
		if d, err := puzzle.Lookup(name); err == nil {
			fmt.Fprintf(w, "  %s\n", d.Syntax)
		}
	}
}

// taskNames lists every task, for flag help.
func taskNames() string {
	names := make([]string, len(puzzle.Tasks))
	for i, t := range puzzle.Tasks {
		names[i] = string(t)
	}
	return strings.Join(names, ", ")
}

// defaultTasks lists every puzzle's default task, "queens count, ...", in
// registry order, for flag help.
func defaultTasks() string {
	var out []string
	for _, name := range puzzle.Puzzles {
		if d, err := puzzle.Lookup(name); err == nil {
			out = append(out, name+" "+string(d.DefaultTask))
		}
	}
	return strings.Join(out, ", ")
}

// helps holds each subcommand's help by flag set name.
var helps = map[string]help{}

// helpOut receives -h output (the stdout of the running command line), and
// stderrOut notes for the user (its stderr).
var helpOut, stderrOut io.Writer = os.Stdout, os.Stderr

// printHelp writes the help of the command whose flag set is fs: usage
// lines, description, its own flags, examples.
func printHelp(w io.Writer, fs *flag.FlagSet) {
	name := fs.Name()
	h, ok := helps[name]
	if !ok {
		h.usage = []string{name + " [flags]"}
	}
	for i, u := range h.usage {
		if i == 0 {
			fmt.Fprintf(w, "usage: boardsat %s\n", u)
		} else {
			fmt.Fprintf(w, "       boardsat %s\n", u)
		}
	}
	summary := commands[strings.Fields(name)[0]].summary
	if h.about != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(h.about))
	} else if summary != "" {
		fmt.Fprintf(w, "\n%s\n", summary)
	}
	if h.extra != nil {
		h.extra(w)
	}
	if h.specs {
		printSpecs(w)
	}
	nflags := 0
	fs.VisitAll(func(*flag.Flag) { nflags++ })
	if nflags > 0 {
		fmt.Fprintln(w, "\nflags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	if len(h.examples) > 0 {
		fmt.Fprintln(w, "\nexamples:")
		for _, e := range h.examples {
			fmt.Fprintf(w, "  boardsat %s\n", e)
		}
	}
}

// usageError marks bad input: reported in one line, exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// badInput wraps err as bad input (exit status 2).
func badInput(err error) error { return usageError{err} }

// badInputf formats a bad-input error (exit status 2).
func badInputf(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// exitError ends the program with a chosen status after printing its message
// (if any); compare uses status 1 for a disagreement.
type exitError struct {
	status int
	msg    string
}

func (e exitError) Error() string { return e.msg }

func main() {
	sat.ServeWorker() // a worker for timed gophersat searches never returns
	handleSignals()
	code := run(os.Args[1:], os.Stdout, os.Stderr)
	// Reap gophersat's search child, so that the command's CPU time, as
	// wait4 sees it, includes the child's.
	sat.StopWorker()
	os.Exit(code)
}

// run executes one command line and returns the exit status.
func run(args []string, rawStdout, stderr io.Writer) int {
	stdout := &checkedWriter{w: rawStdout}
	helpOut, stderrOut = stdout, stderr
	var last bytes.Buffer // the closing line on stderr
	code := runCommand(args, stdout, &last)
	if stdout.err != nil {
		name := "help" // no command: the usage was printed
		if len(args) > 0 {
			name = args[0]
		}
		return outputFailed(stderr, name, stdout.err)
	}
	io.Copy(stderr, &last)
	return code
}

// runCommand executes one command line, its closing line (if any) to
// stderr, and returns the exit status.
func runCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		// No command is a usage error, as with go: the usage goes to
		// stderr and the status is 2; "boardsat help" asks for it (0).
		usage(stderr)
		return answer.ExitBadInput
	}
	if args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		return 0
	}
	if args[0] == "--version" || args[0] == "-version" {
		args = append([]string{"version"}, args[1:]...)
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "boardsat: unknown command %q (run boardsat help)\n", args[0])
		return answer.ExitBadInput
	}
	restore, err := startSolvers()
	defer restore()
	if err == nil {
		err = cmd.run(args[1:], stdout)
	}
	name := args[0] // messages name the subcommand: "boardsat results plot: ..."
	if len(args) > 1 {
		if _, ok := helps[args[0]+" "+args[1]]; ok {
			name += " " + args[1]
		}
	}
	var ue usageError
	var ee exitError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ee):
		if ee.msg != "" {
			fmt.Fprintf(stderr, "boardsat %s: %s\n", name, ee.msg)
		}
		return ee.status
	case errors.As(err, &ue), errors.As(err, new(*atomicfile.PathError)), errors.As(err, new(*fs.PathError)):
		// Bad input, or a file that cannot be read or written (a path
		// that cannot take it, a full disk).
		fmt.Fprintf(stderr, "boardsat %s: %s\n", name, oneLine(err.Error()))
		return answer.ExitBadInput
	default:
		fmt.Fprintf(stderr, "boardsat %s: %s\n", name, oneLine(err.Error()))
		return answer.ExitFailed
	}
}

// oneLine folds an error message onto one line and cuts it at maxMessage
// bytes.
func oneLine(s string) string {
	s = strings.ReplaceAll(strings.TrimSpace(s), "\n", "; ")
	if len(s) <= maxMessage {
		return s
	}
	cut := maxMessage
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d more bytes cut)", s[:cut], len(s)-cut)
}

// maxMessage is the most bytes of an error message printed: a message that
// quotes a user's input (a suite line, a spec) stays one readable line.
const maxMessage = 300

func usage(w io.Writer) {
	fmt.Fprintln(w, "boardsat: chess-board constraint puzzles, solved by native search and by SAT")
	fmt.Fprintln(w, "\nusage: boardsat COMMAND [arguments]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
	printSpecs(w)
	fmt.Fprintln(w, "\nrun 'boardsat COMMAND -h' for a command's usage, flags and examples")
}

// parseFlags parses args with fs, allowing flags and positional arguments to
// be interleaved (boardsat solve SPEC --backend sat), and returns the
// positional arguments. Flag errors are bad input.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				printHelp(helpOut, fs)
				return nil, err
			}
			return nil, badInput(flagValueError(fs, err))
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, checkDurations(fs)
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// badFlagValue matches the flag package's error for a value its flag
// cannot parse.
var badFlagValue = regexp.MustCompile(`^invalid value "(.*)" for flag -([^:]+): `)

// flagValueError rewrites the flag package's "invalid value "5" for flag
// -timeout: parse error" for a duration flag into a line that says what to
// write: "--timeout 5: want a duration such as 5s or 2m". Any other flag's
// is said as the docs write flags: "--solvers x.json: field kind: ..."
// (the value once, though its own message may begin with it). Other errors
// are returned as they are.
func flagValueError(fs *flag.FlagSet, err error) error {
	m := badFlagValue.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	msg := strings.TrimPrefix(err.Error(), m[0])
	if f := fs.Lookup(m[2]); f != nil {
		if g, ok := f.Value.(flag.Getter); ok {
			switch g.Get().(type) {
			case time.Duration:
				return fmt.Errorf("--%s %s: want a duration such as 5s or 2m", m[2], m[1])
			case int, int64, uint, uint64:
				if msg == "parse error" {
					msg = "want a whole number"
				}
			case float64:
				if msg == "parse error" {
					msg = "want a number"
				}
			}
		}
	}
	if strings.HasPrefix(msg, m[1]+": ") {
		return fmt.Errorf("--%s %s", m[2], msg)
	}
	return fmt.Errorf("--%s %s: %s", m[2], m[1], msg)
}

// checkDurations refuses a negative value of any duration flag that was
// set (a time limit, a checkpoint interval, a wait): the one place every
// subcommand's durations are checked.
func checkDurations(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if g, ok := f.Value.(flag.Getter); ok && err == nil {
			if d, ok := g.Get().(time.Duration); ok && d < 0 {
				err = badInputf("--%s %s: a duration must not be negative", f.Name, d)
			}
		}
	})
	return err
}
