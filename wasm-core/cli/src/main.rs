//! `slub-lab`: run, explore and benchmark SLUB scenarios headless, with JSON output
//! (design.md §5; tests outside the project rely on this contract), and check or export the
//! lessons (`lesson check [DIR]`: exit 1 a failed claim, 2 a malformed lesson; crate
//! slub-lessons).
//!
//! Exit codes: 0 no violation, 1 some violation, 2 bad input (unreadable file, bad scenario, a
//! move that is not enabled, bad arguments). The tool never panics on its input: every failure
//! is a message on stderr and exit 2.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "slub-lab",
    version,
    about = "A step-level model of the Linux kernel's lockless SLUB allocator",
    after_help = "Exit status: 0 no invariant violated, 1 some invariant violated, \
                  2 bad input or a move that is not enabled."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run a scenario: setup, then the schedule, then the default policy to the end.
    /// Prints the outcome as one JSON object.
    Run {
        /// The scenario file (JSON, schemaVersion 1).
        scenario: PathBuf,
        /// Comma-separated moves (`A`, `I`, `migrate:A:1`); overrides the file's schedule.
        /// An empty value means no moves: the default policy runs from the start.
        #[arg(long, value_name = "M1,M2,...")]
        schedule: Option<String>,
        /// Also print the event of every step (`"events": [...]`).
        #[arg(long)]
        events: bool,
        /// The most moves the default policy may add after the schedule (at most 1,000,000);
        /// a run still going then is reported as the violation `LIVELOCK` (exit 1).
        #[arg(long, value_name = "N", default_value_t = slub_sim::MAX_POLICY_MOVES,
              value_parser = parse_max_moves)]
        max_moves: usize,
    },
    /// Explore the interleavings of a scenario's tasks and irqs, breadth first, and print
    /// the shortest schedule that breaks an invariant (its schedule replays with `run`).
    Explore {
        scenario: PathBuf,
        /// Switches away from a context that could go on (irq entries not counted).
        #[arg(long, value_name = "N", default_value_t = 3)]
        max_preemptions: u32,
        /// Schedules run to a final state before the search gives up (complete: false).
        #[arg(long, value_name = "N", default_value_t = 1_000_000)]
        max_executions: u64,
        /// Distinct states before the search gives up.
        #[arg(long, value_name = "N", default_value_t = 2_000_000)]
        max_states: u64,
        /// Memory the search may hold, about (MB, at most 4096); reached, it stops with
        /// complete: false.
        #[arg(long, value_name = "MB", default_value_t = slub_sim::explore::DEFAULT_MAX_MEMORY_MB,
              value_parser = parse_max_memory_mb)]
        max_memory_mb: u64,
        #[arg(long, value_name = "N", default_value_t = 2)]
        max_migrations: u32,
        /// Interrupt handler entries (each handler enters at most once anyway).
        #[arg(long, value_name = "N")]
        max_irq_entries: Option<u32>,
        /// Wall-clock limit in milliseconds (complete: false when hit, and `incomplete` says
        /// so); 0 means none.
        #[arg(long, value_name = "MS", default_value_t = slub_sim::explore::DEFAULT_TIMEOUT_MS)]
        timeout_ms: u64,
        /// Turn the reduction off (dominance, and sleep sets without a preemption bound): the
        /// plain search, to measure what the reduction saves.
        #[arg(long)]
        no_reduction: bool,
    },
    /// Run a lab workload under the cost model and print cycles per operation, the stat
    /// counters and the cache-line transfers as JSON. `bench seeds` runs every seed
    /// comparison and prints each ratio beside the seed's published one.
    #[command(after_help = BENCH_HELP)]
    Bench {
        /// alloc-then-free, alloc-free, concurrent, fastpath-reuse, n-pattern,
        /// producer-consumer, or `seeds`.
        workload: String,
        /// Variant keys of a scenario's `variant` (model.md §2.16, `era`, `tidStep`), `key=value`
        /// (repeatable; later ones win); `allocator=slab` runs SLAB (keys `preempt`, `slabGrow`,
        /// `slabSharedFree`).
        #[arg(long = "variant", value_name = "KEY=VALUE", value_parser = parse_key_value)]
        variant: Vec<(String, String)>,
        /// CPUs of the machine (the workload's default otherwise).
        #[arg(long, value_name = "N")]
        cpus: Option<u32>,
        /// Workload parameters, `key=value` (repeatable): size, n, nodes, rounds, window, pairs.
        #[arg(long = "param", value_name = "KEY=VALUE", value_parser = parse_key_value)]
        param: Vec<(String, String)>,
        /// `bench seeds` only: run just this comparison (`003`, `004b`, ...; repeatable).
        #[arg(long = "seed", value_name = "ID")]
        seed: Vec<String>,
        /// `bench seeds` only: find each comparison's sensitivity to every cost constant by
        /// re-running both sides with it at 75 % and 125 % (slow) instead of the linear estimate.
        #[arg(long)]
        sensitivity: bool,
    },
    /// Check the lessons, or export them as JSON for the page (docs/writing-lessons.md).
    #[command(subcommand)]
    Lesson(LessonCommand),
    /// Grade a student's answer to a model-checked exercise by replaying it on the model;
    /// prints Gradescope's autograder results JSON (docs/instructors-guide.md).
    #[command(
        after_help = "EXERCISE: <lesson id>/e<k> (exercise k, from 1) or <lesson id>/<step> \
                            (a step's try-it goal); `--list` prints them all.\n\
                            ANSWER: a playground permalink, a schedule (T,T,I) played from where \
                            the exercise opens, or a scenario file with a schedule marked as a \
                            file: @FILE or --answer-file FILE (a bare name ending in .json is \
                            read as a file too).\n\n\
                            Exit status: 0 a result is printed (a wrong or malformed answer \
                            scores 0, with a message), 2 the exercise or the lessons are wrong."
    )]
    Grade {
        #[arg(required_unless_present = "list")]
        exercise: Option<String>,
        #[arg(required_unless_present_any = ["list", "answer_file"], conflicts_with = "answer_file")]
        answer: Option<String>,
        /// The answer is this scenario file (with its `schedule`), as the playground saves it.
        #[arg(long, value_name = "FILE")]
        answer_file: Option<PathBuf>,
        /// Print every exercise `grade` scores, one a line: EXERCISE, a tab, the question's
        /// first line.
        #[arg(long, conflicts_with_all = ["exercise", "answer", "answer_file"])]
        list: bool,
        /// The lessons folder (default: `lessons`, in the project's root).
        #[arg(long, value_name = "DIR")]
        lessons: Option<PathBuf>,
    },
}

#[derive(Subcommand, Debug)]
enum LessonCommand {
    /// Parse every lesson folder of DIR (`NN-slug/lesson.md` and its scenario, with
    /// DIR/vocabulary.json) and replay every claim and prediction against the model.
    #[command(
        after_help = "Exit status: 0 every lesson holds, 1 a claim, prediction, \
                            highlight or move the model does not bear out (the message names the \
                            file, the step and the claim), 2 a malformed lesson (naming the \
                            file and the field) or bad arguments."
    )]
    Check {
        #[arg(default_value = "lessons")]
        dir: PathBuf,
        /// Also print the course's measures of its predictions (where the right answer sits,
        /// how often it is the unique longest choice, which ask why) on stdout.
        #[arg(long)]
        stats: bool,
    },
    /// Check the lessons as `check` does, then print them as one JSON object `{"lessons":
    /// [...]}`: the structure parsed, moves resolved, highlights parsed, prose as Markdown.
    /// Exit status as `check` (nothing is printed on stdout unless every lesson holds).
    Export {
        #[arg(default_value = "lessons")]
        dir: PathBuf,
    },
}

const BENCH_HELP: &str = "Workloads (defaults in brackets):
  alloc-then-free    slab_test test 1: n allocations, then n frees [cpus=1 size=8 n=10000]
  alloc-free         slab_test test 2: n x (alloc; free) [cpus=1 size=8 n=10000]
  concurrent         N*alloc N*free on every CPU at once [cpus=4 size=16 n=2000]
  fastpath-reuse     time_bench_kmem_cache1: alloc+free one object [cpus=1 size=64 n=10000]
  n-pattern          alloc n, free n, `rounds` times [cpus=1 size=64 n=256 rounds=40]
  producer-consumer  cpu p allocates+writes, cpu (cpus-1-p) uses+frees, for each of `pairs`
                     pairs [cpus=2 size=256 n=4000 window=8 pairs=1]
  seeds              every seed comparison, the model's ratio beside the published one
                     (no --variant/--cpus/--param; --seed ID runs just that comparison)

Exit status: 0 done, 1 an invariant broke (bench) or an asserted seed comparison has the wrong
sign (seeds), 2 bad input.";

fn parse_key_value(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.trim().to_string())),
        _ => Err(format!("`{s}` is not of the form KEY=VALUE")),
    }
}

/// `--max-moves`: a count up to [`slub_sim::MAX_MOVES_CEILING`], the ceiling named.
fn parse_max_moves(s: &str) -> Result<usize, String> {
    let n: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of moves"))?;
    let ceiling = slub_sim::MAX_MOVES_CEILING;
    if n > ceiling {
        return Err(format!(
            "{n} moves is more than the ceiling of {ceiling} (MAX_MOVES_CEILING): a correct \
             scenario ends within {} (the default), and a run of a million moves takes seconds",
            slub_sim::MAX_POLICY_MOVES
        ));
    }
    Ok(n)
}

/// `--max-memory-mb`: 1 MB up to [`slub_sim::explore::MAX_MEMORY_MB_CEILING`], the ceiling
/// named.
fn parse_max_memory_mb(s: &str) -> Result<u64, String> {
    let n: u64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of megabytes"))?;
    let ceiling = slub_sim::explore::MAX_MEMORY_MB_CEILING;
    if n == 0 || n > ceiling {
        return Err(format!(
            "{n} MB is out of range: 1 to {ceiling} (MAX_MEMORY_MB_CEILING, what a wasm32 \
             search in the browser can address at all)"
        ));
    }
    Ok(n)
}

/// A failure to report: the message for stderr and the exit code.
struct Failure {
    code: u8,
    message: String,
}

impl Failure {
    fn input(message: impl Into<String>) -> Self {
        Failure {
            code: 2,
            message: message.into(),
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with exit 0; every usage error is exit 2.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let result = match cli.command {
        Command::Run {
            scenario,
            schedule,
            events,
            max_moves,
        } => run(&scenario, schedule.as_deref(), events, max_moves),
        Command::Explore {
            scenario,
            max_preemptions,
            max_executions,
            max_states,
            max_memory_mb,
            max_migrations,
            max_irq_entries,
            timeout_ms,
            no_reduction,
        } => {
            let bounds = slub_sim::explore::Bounds {
                max_preemptions: Some(max_preemptions),
                max_migrations: Some(max_migrations),
                max_irq_entries,
                max_executions: max_executions.max(1),
                max_states: max_states.max(1),
                max_memory_mb: max_memory_mb.max(1),
                reduction: !no_reduction,
                // What this process can get (RLIMIT_AS, the cgroup's memory.max,
                // MemAvailable): the budget is clamped to it and the result says so.
                memory_limit: slub_sim::explore::limits::process_limit(),
            };
            explore(&scenario, &bounds, timeout_ms)
        }
        Command::Bench {
            workload,
            variant,
            cpus,
            param,
            seed,
            sensitivity,
        } => bench(&workload, &variant, cpus, &param, &seed, sensitivity),
        Command::Grade {
            exercise,
            answer,
            answer_file,
            list,
            lessons,
        } => grade(
            lessons.as_deref(),
            exercise.as_deref(),
            answer.as_deref(),
            answer_file.as_deref(),
            list,
        ),
        Command::Lesson(LessonCommand::Check { dir, stats }) => lesson(&dir, false, stats),
        Command::Lesson(LessonCommand::Export { dir }) => lesson(&dir, true, false),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            let _ = writeln!(std::io::stderr(), "{}", f.message);
            ExitCode::from(f.code)
        }
    }
}

/// `lesson check` / `lesson export`: every problem on stderr, one line each; the JSON on
/// stdout only when every lesson holds.
/// `slub-lab grade`: the results JSON on stdout (or, with `--list`, the exercises); a wrong
/// exercise or broken lessons exit 2.
fn grade(
    lessons: Option<&Path>,
    exercise: Option<&str>,
    answer: Option<&str>,
    answer_file: Option<&Path>,
    list: bool,
) -> Result<u8, Failure> {
    let fail = |e: String| Failure::input(format!("slub-lab: grade: {e}"));
    let dir = lessons.unwrap_or(Path::new("lessons"));
    if !dir.is_dir() {
        return Err(fail(match lessons {
            None => "no `lessons` folder here: run from the project's root, or pass the \
                     lessons folder with --lessons DIR"
                .to_string(),
            Some(d) => format!("--lessons {}: not a folder", d.display()),
        }));
    }
    if list {
        let report = slub_lessons::check_dir(dir);
        if !report.errors().is_empty() {
            return Err(fail(format!(
                "the lessons of {} do not hold:\n{}",
                dir.display(),
                report.errors().join("\n")
            )));
        }
        let mut out = String::new();
        for (ex, question) in slub_lessons::grade::list(&report.lessons) {
            out.push_str(&format!("{ex}\t{question}\n"));
        }
        return write_out(&out).map(|()| 0);
    }
    let (Some(exercise), Some(source)) = (
        exercise,
        match (answer, answer_file) {
            (_, Some(f)) => Some(slub_lessons::grade::AnswerSource::File(f)),
            (Some(a), None) => Some(slub_lessons::grade::AnswerSource::Text(a)),
            (None, None) => None,
        },
    ) else {
        return Err(fail(
            "give EXERCISE and ANSWER (or --answer-file FILE), or --list".into(),
        ));
    };
    let json = slub_lessons::grade::grade_refusing(dir, exercise, source).map_err(fail)?;
    write_out(&format!("{json}\n"))?;
    Ok(0)
}

/// Write to stdout without panicking on a closed pipe.
fn write_out(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Failure::input(format!(
            "slub-lab: cannot write the output: {e}"
        ))),
        _ => Ok(()),
    }
}

fn lesson(dir: &Path, export: bool, stats: bool) -> Result<u8, Failure> {
    let t0 = std::time::Instant::now();
    let report = slub_lessons::check_dir(dir);
    if stats {
        // Printed whatever the verdict, so a course that fails the balance rules shows why.
        let m = slub_lessons::course::Measures::of(&report.lessons);
        write_out(&m.render())?;
    }
    let code = report.exit_code();
    if code != 0 {
        return Err(Failure {
            code,
            message: report.errors().join("\n"),
        });
    }
    if export {
        let json = serde_json::json!({ "lessons": slub_lessons::export::export(&report.lessons) });
        let _ = writeln!(std::io::stdout(), "{json}");
    } else {
        eprintln!(
            "slub-lab: {} lessons hold ({} ms)",
            report.lessons.len(),
            t0.elapsed().as_millis()
        );
    }
    Ok(0)
}

/// `--schedule` as moves: split on commas, each trimmed; empty items (an empty value, a
/// trailing comma) are dropped, so move indices count the moves actually given.
fn split_schedule(flag: &str) -> Vec<String> {
    flag.split(',')
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(String::from)
        .collect()
}

/// The largest scenario file read: the biggest valid scenario (every list at its limit, a
/// schedule of `MAX_SCHEDULE_MOVES` long moves) is about 5 MB.
const MAX_SCENARIO_BYTES: u64 = 16 << 20;

fn read_scenario(path: &Path) -> Result<String, Failure> {
    use std::io::Read;
    let cannot = |e: std::io::Error| {
        Failure::input(format!("slub-lab: {}: cannot read: {e}", path.display()))
    };
    // Read at most one byte past the ceiling: a larger file is refused without being held.
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_SCENARIO_BYTES + 1).read_to_end(&mut bytes))
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_SCENARIO_BYTES {
        return Err(Failure::input(format!(
            "slub-lab: {}: larger than {MAX_SCENARIO_BYTES} bytes (16 MiB, MAX_SCENARIO_BYTES): \
             the largest valid scenario is about 5 MB",
            path.display()
        )));
    }
    // Name the byte where the text stops being UTF-8 (the std message does not).
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        Failure::input(format!(
            "slub-lab: {}: not UTF-8 text: invalid byte sequence at byte offset {at}",
            path.display()
        ))
    })
}

/// `--schedule` has the ceiling of a file's `schedule` (the file's is checked as it is read).
fn check_schedule_len(moves: &[String]) -> Result<(), Failure> {
    let ceiling = slub_sim::scenario::MAX_SCHEDULE_MOVES;
    if moves.len() > ceiling {
        return Err(Failure::input(format!(
            "slub-lab: --schedule: {} moves: at most {ceiling} (MAX_SCHEDULE_MOVES)",
            moves.len()
        )));
    }
    Ok(())
}

fn run(path: &Path, schedule: Option<&str>, events: bool, max_moves: usize) -> Result<u8, Failure> {
    let text = read_scenario(path)?;
    let file = path.display();
    // Validate first: a bad scenario is reported the same way whatever state the model is in.
    let bad = |e: slub_sim::Error| Failure::input(format!("slub-lab: {file}: {e}"));
    let sc = slub_sim::scenario::parse(&text).map_err(|e| bad(e.into()))?;
    let moves: Vec<String> = match schedule {
        Some(flag) => split_schedule(flag),
        None => sc.schedule.clone().unwrap_or_default(),
    };
    check_schedule_len(&moves)?;
    // A lean simulator holds nothing per move, so a run near the move ceiling fits in the
    // memory of the machine alone. Without `--events` one pass gives the outcome.
    let outcome_of = |events: bool, sink: &mut dyn FnMut(&mut Vec<slub_sim::Event>)| {
        let mut sim = slub_sim::Simulator::lean(sc.clone(), events);
        sim.apply_all(&moves).map_err(bad)?;
        sim.run_to_end_streaming(max_moves, sink);
        Ok::<_, Failure>(sim.outcome())
    };
    let outcome = outcome_of(false, &mut |_| {})?;
    let code = if outcome.violations.is_empty() { 0 } else { 1 };
    let json = serde_json::to_value(&outcome)
        .map_err(|e| Failure::input(format!("slub-lab: cannot serialise the outcome: {e}")))?;
    if !events {
        print_json(&json)?;
        return Ok(code);
    }
    // With `--events` the events are streamed where `"events"` falls among the outcome's
    // keys: serde writes the outcome's object, and its `"events"` value is a second run of
    // the same moves (the model is deterministic) that hands each event to serde as it
    // happens, so a long run's events are never all in memory. The text is what printing one
    // JSON object with every event in it would give.
    let serde_json::Value::Object(fields) = json else {
        return Err(Failure::input(
            "slub-lab: internal error: the outcome is not an object",
        ));
    };
    let streamed = StreamedEvents {
        run: std::cell::RefCell::new(Some(Box::new(|sink| outcome_of(true, sink)))),
        again: std::cell::RefCell::new(None),
    };
    let whole = WithEvents {
        fields: &fields,
        events: &streamed,
    };
    print_json(&whole)?;
    // On a closed pipe the second run still goes to its end (its events are only no longer
    // written), so its outcome can be compared either way.
    let again = streamed.again.borrow_mut().take();
    match again {
        Some(Err(e)) => Err(e),
        Some(Ok(again)) if again != outcome => Err(Failure {
            code: 1,
            message: "slub-lab: internal error: the run with events ended differently".into(),
        }),
        _ => Ok(code),
    }
}

/// The second run of `run --events`: given where to put each batch of events, it runs the
/// moves and returns the outcome.
type EventRun<'a> = Box<
    dyn FnOnce(&mut dyn FnMut(&mut Vec<slub_sim::Event>)) -> Result<slub_sim::Outcome, Failure>
        + 'a,
>;

/// The value of `"events"`: serialising it runs the moves once and writes each event as a
/// JSON array element as soon as the model makes it; the run's outcome is kept in `again`.
struct StreamedEvents<'a> {
    run: std::cell::RefCell<Option<EventRun<'a>>>,
    again: std::cell::RefCell<Option<Result<slub_sim::Outcome, Failure>>>,
}

impl serde::Serialize for StreamedEvents<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error as _, SerializeSeq as _};
        let run = self
            .run
            .borrow_mut()
            .take()
            .ok_or_else(|| S::Error::custom("the events were written twice"))?;
        let mut seq = serializer.serialize_seq(None)?;
        let mut failed = None;
        let again = run(&mut |events: &mut Vec<slub_sim::Event>| {
            for ev in events.drain(..) {
                if failed.is_some() {
                    return;
                }
                // As a Value first: its keys then print in the order they always have.
                let written = serde_json::to_value(&ev)
                    .map_err(S::Error::custom)
                    .and_then(|v| seq.serialize_element(&v));
                if let Err(e) = written {
                    failed = Some(e);
                }
            }
        });
        *self.again.borrow_mut() = Some(again);
        match failed {
            Some(e) => Err(e),
            None => seq.end(),
        }
    }
}

/// The outcome's fields in their order, with `"events"` among them where it sorts.
struct WithEvents<'a, 'r> {
    fields: &'a serde_json::Map<String, serde_json::Value>,
    events: &'a StreamedEvents<'r>,
}

impl serde::Serialize for WithEvents<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let mut fields = self.fields.clone();
        fields.insert("events".to_string(), serde_json::Value::Null);
        let mut map = serializer.serialize_map(Some(fields.len()))?;
        for (key, value) in &fields {
            if key == "events" {
                map.serialize_entry(key, self.events)?;
            } else {
                map.serialize_entry(key, value)?;
            }
        }
        map.end()
    }
}

fn explore(
    path: &Path,
    bounds: &slub_sim::explore::Bounds,
    timeout_ms: u64,
) -> Result<u8, Failure> {
    let text = read_scenario(path)?;
    let file = path.display();
    let mut sc = slub_sim::scenario::parse(&text)
        .map_err(|e| Failure::input(format!("slub-lab: {file}: {}", slub_sim::Error::from(e))))?;
    // The search makes its own schedules: the file's is not kept.
    sc.schedule = None;
    let start = std::time::Instant::now();
    let deadline = (timeout_ms > 0)
        .then(|| start.checked_add(std::time::Duration::from_millis(timeout_ms)))
        .flatten();
    let mut report = slub_sim::explore::explore(&sc, bounds, &mut |_| {
        deadline.is_none_or(|d| std::time::Instant::now() < d)
    });
    if report.cancelled {
        // The CLI's only reason to stop a search is its clock: say which limit it was.
        report.incomplete = Some(format!(
            "the time limit ({timeout_ms} ms) ran out: `--timeout-ms` raises it (0: none)"
        ));
    }
    let elapsed_ms = start.elapsed().as_secs_f64() * 1000.0;
    let code = if report.violations.is_empty() { 0 } else { 1 };
    let mut json = serde_json::to_value(&report)
        .map_err(|e| Failure::input(format!("slub-lab: cannot serialise the report: {e}")))?;
    if let serde_json::Value::Object(map) = &mut json {
        map.insert("schemaVersion".into(), 1.into());
        map.insert(
            "elapsedMs".into(),
            serde_json::json!((elapsed_ms * 1000.0).round() / 1000.0),
        );
    }
    print_json(&json)?;
    Ok(code)
}

/// `slub-lab bench WORKLOAD` and `slub-lab bench seeds`.
fn bench(
    workload: &str,
    variant: &[(String, String)],
    cpus: Option<u32>,
    params: &[(String, String)],
    only: &[String],
    sensitivity: bool,
) -> Result<u8, Failure> {
    use slub_lab_core as lab;
    let names: Vec<&str> = lab::WorkloadKind::ALL.iter().map(|w| w.name()).collect();
    if workload == "seeds" {
        if !variant.is_empty() || cpus.is_some() || !params.is_empty() {
            return Err(Failure::input(
                "slub-lab bench seeds: takes no --variant, --cpus or --param (each comparison fixes its own)",
            ));
        }
        let cases = lab::seed_cases();
        let pending = lab::pending_seeds();
        for id in only {
            if pending.iter().any(|p| p.id == *id) {
                return Err(Failure::input(format!(
                    "slub-lab bench seeds: seed {id} is not runnable yet: it needs {}",
                    pending
                        .iter()
                        .find(|p| p.id == *id)
                        .map_or("", |p| p.needs.as_str())
                )));
            }
            if !cases.iter().any(|c| c.id == *id) {
                let ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
                return Err(Failure::input(format!(
                    "slub-lab bench seeds: no seed comparison `{id}`; they are {}",
                    ids.join(", ")
                )));
            }
        }
        let mut comparisons = Vec::new();
        let mut wrong = false;
        for case in cases
            .iter()
            .filter(|c| only.is_empty() || only.contains(&c.id))
        {
            let fail =
                |e: String| Failure::input(format!("slub-lab bench seeds: seed {}: {e}", case.id));
            let mut r = lab::run_seed(case).map_err(fail)?;
            if sensitivity {
                lab::rerun_sensitivity(case, &mut r).map_err(fail)?;
            }
            wrong |= r.asserted && !r.sign_ok;
            comparisons.push(r);
        }
        let json = serde_json::json!({
            "schemaVersion": 1,
            "tolerance": lab::TOLERANCE,
            "comparisons": comparisons,
            "pending": pending,
        });
        print_json(&json)?;
        return Ok(u8::from(wrong));
    }
    if sensitivity {
        return Err(Failure::input(
            "slub-lab bench: --sensitivity goes with `bench seeds` only",
        ));
    }
    if !only.is_empty() {
        return Err(Failure::input(
            "slub-lab bench: --seed goes with `bench seeds` only",
        ));
    }
    let kind = lab::WorkloadKind::from_name(workload).ok_or_else(|| {
        Failure::input(format!(
            "slub-lab bench: unknown workload `{workload}`; the workloads are {}, and `seeds` (every seed comparison)",
            names.join(", ")
        ))
    })?;
    let mut w = kind.workload();
    if let Some(n) = cpus {
        w.cpus = n;
    }
    for (k, v) in params {
        w.set(k, v)
            .map_err(|e| Failure::input(format!("slub-lab bench: --param {k}={v}: {e}")))?;
    }
    let (allocator, v) = lab::parse_flavour(variant, w.cpus)
        .map_err(|e| Failure::input(format!("slub-lab bench: {e}")))?;
    w.allocator = allocator;
    w.check()
        .map_err(|e| Failure::input(format!("slub-lab bench: {e}")))?;
    let report = lab::bench(&w, &v).map_err(|e| Failure::input(format!("slub-lab bench: {e}")))?;
    let code = u8::from(!report.violations.is_empty());
    let json = serde_json::to_value(&report)
        .map_err(|e| Failure::input(format!("slub-lab: cannot serialise the report: {e}")))?;
    print_json(&json)?;
    Ok(code)
}

/// Print to stdout without panicking on a closed pipe (`slub-lab run ... | head`).
fn print_json<T: serde::Serialize + ?Sized>(value: &T) -> Result<(), Failure> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = serde_json::to_writer_pretty(&mut out, value)
        .map_err(std::io::Error::from)
        .and_then(|()| writeln!(out))
        .and_then(|()| out.flush());
    match written {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::input(format!(
            "slub-lab: cannot write the output: {e}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_flag_splits_and_trims() {
        assert_eq!(
            split_schedule("A, B ,migrate:A:1"),
            vec!["A", "B", "migrate:A:1"]
        );
        assert!(split_schedule("").is_empty());
        assert!(split_schedule(" ").is_empty());
        assert_eq!(split_schedule("A,"), vec!["A"]);
    }

    #[test]
    fn ceilings_are_named() {
        let at = vec!["A".to_string(); slub_sim::scenario::MAX_SCHEDULE_MOVES];
        assert!(check_schedule_len(&at).is_ok());
        let over = vec!["A".to_string(); slub_sim::scenario::MAX_SCHEDULE_MOVES + 1];
        let e = check_schedule_len(&over).err().map(|f| f.message);
        assert_eq!(
            e.as_deref(),
            Some("slub-lab: --schedule: 100001 moves: at most 100000 (MAX_SCHEDULE_MOVES)")
        );
        assert_eq!(parse_max_moves("1000000"), Ok(1_000_000));
        assert!(parse_max_moves("1000001").is_err_and(|e| e.contains("ceiling of 1000000")));
        assert_eq!(parse_max_memory_mb("4096"), Ok(4096));
        assert!(parse_max_memory_mb("0").is_err_and(|e| e.contains("1 to 4096")));
    }

    #[test]
    fn key_value() {
        assert_eq!(
            parse_key_value("fastpath=tid-loop").unwrap(),
            ("fastpath".into(), "tid-loop".into())
        );
        assert!(parse_key_value("fastpath").is_err());
        assert!(parse_key_value("=x").is_err());
    }

    #[test]
    fn cli_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
