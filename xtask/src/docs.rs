//! `cargo xtask docs [FILE…]`: every command and program the docs show is run,
//! and what it prints is compared with what the docs say it prints.
//!
//! The files are README.md and every `docs/*.md` unless named. Each fenced
//! block is read by its language:
//!
//! - `console`: lines starting with `$ ` are commands (a line ending in `\`
//!   continues), run in order as one bash script from the repository root,
//!   with the CLI `ferroscale` (feature `index`) and the project's `.venv`
//!   first on `PATH`. The lines after a command, up to the next one, are what
//!   it prints (stdout and stderr together).
//! - `sh`, `bash`, `shell`: every line is a command; the script must succeed.
//! - `python`, then a `text` block: the program runs with the venv's python
//!   and prints the text block; without a `text` block it must just succeed.
//! - `rust`, `toml`: the line before the fence says which file of the
//!   repository holds the block (`<!-- doctest: file PATH -->`), a file that
//!   a test compiles and runs; the block's lines must be consecutive lines of
//!   it (doc-comment prefixes dropped, and rustdoc's hidden `# ` lines).
//! - Any checked block may instead be marked `<!-- doctest: skip REASON -->`,
//!   REASON naming what runs it instead.
//!
//! In expected output `…` matches any text within a line, and a line that is
//! only `…` matches any number of lines; trailing whitespace is ignored.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::workspace::{run_step, workspace_root};

/// A block's run is stopped after this long (the docs show quick runs).
const BLOCK_TIMEOUT: Duration = Duration::from_secs(600);

/// Where each fenced block of a doc was found and what it holds.
#[derive(Debug, Clone, PartialEq)]
struct Block {
    /// 1-based line of the opening fence.
    line: usize,
    /// The info string's first word (`console`, `rust`, …), lower-case.
    lang: String,
    /// The body, with the fence's indentation removed.
    body: String,
    /// The `<!-- doctest: … -->` directive on the line before the fence.
    directive: Option<Directive>,
}

#[derive(Debug, Clone, PartialEq)]
enum Directive {
    /// The block is part of this repository file.
    File(String),
    /// Not run here; the reason names what runs it.
    Skip(String),
    /// A misspelt directive: an error, not a block quietly left unchecked.
    Unknown(String),
}

/// `cargo xtask docs [FILE…]`.
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let root = workspace_root();
    let files = if args.is_empty() {
        default_files(&root)?
    } else {
        args.iter().map(PathBuf::from).collect()
    };
    run_step(
        "docs: the CLI the docs use",
        "cargo",
        &["build", "-p", "ferroscale-cli", "--features", "index"],
    )?;
    let env = Environment::new(&root);
    let mut failures = Vec::new();
    let mut counts = Counts::default();
    for file in &files {
        let text = std::fs::read_to_string(root.join(file))
            .map_err(|e| format!("docs: cannot read {}: {e}", file.display()))?;
        let blocks = parse_blocks(&text)?;
        let name = file.display().to_string();
        for (i, block) in blocks.iter().enumerate() {
            let place = format!("{name}:{}", block.line);
            let next = blocks.get(i + 1);
            match check_block(&env, block, next, &mut counts) {
                Ok(()) => {}
                Err(e) => {
                    eprintln!("FAIL {place} ({})\n{e}\n", block.lang);
                    failures.push(place);
                }
            }
        }
    }
    eprintln!(
        "docs: {} command blocks and {} programs run, {} blocks matched to files, {} skipped (with reasons), {} failed",
        counts.run, counts.programs, counts.files, counts.skipped, failures.len()
    );
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("docs: blocks that differ: {}", failures.join(", ")))
    }
}

#[derive(Default)]
struct Counts {
    run: usize,
    programs: usize,
    files: usize,
    skipped: usize,
}

/// README.md and every Markdown file of `docs/`, in name order.
fn default_files(root: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files = vec![PathBuf::from("README.md")];
    if let Ok(dir) = std::fs::read_dir(root.join("docs")) {
        let mut docs: Vec<PathBuf> = dir
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .map(|p| PathBuf::from("docs").join(p.file_name().expect("a file")))
            .collect();
        docs.sort();
        files.extend(docs);
    }
    Ok(files)
}

/// What the blocks run with: the CLI and the venv first on `PATH`.
struct Environment {
    root: PathBuf,
    path: String,
    python: PathBuf,
}

impl Environment {
    fn new(root: &Path) -> Self {
        let bin = crate::workspace::target_dir().join("debug");
        let venv = root.join(".venv/bin");
        let path = format!(
            "{}:{}:{}",
            bin.display(),
            venv.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        Self {
            root: root.to_path_buf(),
            path,
            python: venv.join("python"),
        }
    }

    /// Runs `program args…` from the repository root in a process group of
    /// its own (so background servers a block starts are stopped with it),
    /// with stdout and stderr captured.
    fn run(&self, program: &Path, args: &[&str], merge_stderr: bool) -> Result<Ran, String> {
        use std::os::unix::process::CommandExt;
        let out = tempfile("out")?;
        let err = if merge_stderr {
            out.clone()
        } else {
            tempfile("err")?
        };
        let stdout = std::fs::File::create(&out).map_err(|e| e.to_string())?;
        let stderr = if merge_stderr {
            stdout.try_clone().map_err(|e| e.to_string())?
        } else {
            std::fs::File::create(&err).map_err(|e| e.to_string())?
        };
        let started = Instant::now();
        let mut child = Command::new(program)
            .args(args)
            .current_dir(&self.root)
            .env("PATH", &self.path)
            // `ls` and `sort` order names by the locale: the docs show
            // the C locale's order (`_manifest` before `blocks`).
            .env("LC_ALL", "C")
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(stderr)
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", program.display()))?;
        let group = child.id();
        let status = loop {
            if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
                break Some(status);
            }
            if started.elapsed() > BLOCK_TIMEOUT {
                break None;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        // Whatever the block left running (a node in the background) ends here.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{group}")])
            .stderr(Stdio::null())
            .status();
        let _ = child.wait();
        let stdout = std::fs::read_to_string(&out).unwrap_or_default();
        let stderr = if merge_stderr {
            String::new()
        } else {
            std::fs::read_to_string(&err).unwrap_or_default()
        };
        let _ = std::fs::remove_file(&out);
        let _ = std::fs::remove_file(&err);
        match status {
            None => Err(format!(
                "stopped after {} s\n--- printed so far:\n{stdout}{stderr}",
                BLOCK_TIMEOUT.as_secs()
            )),
            Some(status) => Ok(Ran {
                success: status.success(),
                stdout,
                stderr,
            }),
        }
    }
}

struct Ran {
    success: bool,
    stdout: String,
    stderr: String,
}

/// A fresh path in the temporary folder.
fn tempfile(what: &str) -> Result<PathBuf, String> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    Ok(std::env::temp_dir().join(format!("ferroscale-docs-{}-{n}.{what}", std::process::id())))
}

fn check_block(
    env: &Environment,
    block: &Block,
    next: Option<&Block>,
    counts: &mut Counts,
) -> Result<(), String> {
    let checked = matches!(
        block.lang.as_str(),
        "console" | "sh" | "bash" | "shell" | "python" | "rust" | "toml"
    );
    match &block.directive {
        Some(Directive::Skip(reason)) => {
            if reason.trim().is_empty() {
                return Err("a skipped block must say what runs it instead".into());
            }
            counts.skipped += 1;
            return Ok(());
        }
        Some(Directive::File(path)) => {
            counts.files += 1;
            return check_in_file(&env.root, path, &block.body);
        }
        Some(Directive::Unknown(what)) => {
            return Err(format!(
                "unknown directive `doctest: {what}` (`file PATH` or `skip REASON`)"
            ))
        }
        None if !checked => return Ok(()),
        None => {}
    }
    match block.lang.as_str() {
        "console" => {
            counts.run += 1;
            check_console(env, &block.body)
        }
        "sh" | "bash" | "shell" => {
            counts.run += 1;
            let script = format!("set -e\n{}", block.body);
            let ran = env.run(Path::new("bash"), &["-c", &script], true)?;
            if ran.success {
                Ok(())
            } else {
                Err(format!("the script failed:\n{}", ran.stdout))
            }
        }
        "python" => {
            counts.programs += 1;
            let expected = next.filter(|n| n.lang == "text" && n.directive.is_none());
            check_python(env, &block.body, expected.map(|b| b.body.as_str()))
        }
        _ => Err(format!(
            "a {} block needs `<!-- doctest: file PATH -->` (the file a test builds) or `<!-- doctest: skip REASON -->` on the line before it",
            block.lang
        )),
    }
}

/// Every fenced block of a Markdown text, with the directive before it.
fn parse_blocks(text: &str) -> Result<Vec<Block>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let trimmed = lines[i].trim_start();
        let indent = lines[i].len() - trimmed.len();
        let Some(info) = trimmed.strip_prefix("```") else {
            i += 1;
            continue;
        };
        let lang = info
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let directive = i
            .checked_sub(1)
            .map(|p| lines[p].trim())
            .and_then(parse_directive);
        let open = i;
        let mut body = String::new();
        i += 1;
        loop {
            let Some(line) = lines.get(i) else {
                return Err(format!(
                    "the block opened at line {} is never closed",
                    open + 1
                ));
            };
            if line.trim_start().starts_with("```") {
                break;
            }
            // The fence's indentation (a block inside a list item) is not the block's.
            let cut = line.len() - line.trim_start().len();
            body.push_str(&line[cut.min(indent)..]);
            body.push('\n');
            i += 1;
        }
        blocks.push(Block {
            line: open + 1,
            lang,
            body,
            directive,
        });
        i += 1;
    }
    Ok(blocks)
}

fn parse_directive(line: &str) -> Option<Directive> {
    let inner = line.strip_prefix("<!--")?.strip_suffix("-->")?.trim();
    let rest = inner.strip_prefix("doctest:")?.trim();
    Some(if let Some(path) = rest.strip_prefix("file ") {
        Directive::File(path.trim().to_owned())
    } else if let Some(reason) = rest.strip_prefix("skip") {
        Directive::Skip(reason.trim().to_owned())
    } else {
        Directive::Unknown(rest.to_owned())
    })
}

/// The lines compared between a block and a file: doc-comment prefixes and
/// surrounding space dropped, blank lines and comment lines (`# …`, which
/// are also rustdoc's hidden lines) left out.
fn comparable_lines(text: &str) -> Vec<&str> {
    text.lines()
        .map(|l| {
            let l = l.trim();
            let l = l
                .strip_prefix("//!")
                .or_else(|| l.strip_prefix("///"))
                .unwrap_or(l);
            l.trim()
        })
        .filter(|l| !l.is_empty() && *l != "#" && !l.starts_with("# "))
        .collect()
}

fn check_in_file(root: &Path, path: &str, body: &str) -> Result<(), String> {
    let file = std::fs::read_to_string(root.join(path))
        .map_err(|e| format!("the block names {path}, which cannot be read: {e}"))?;
    let want = comparable_lines(body);
    let have = comparable_lines(&file);
    if want.is_empty() {
        return Err("an empty block".into());
    }
    if have.windows(want.len()).any(|w| w == want.as_slice()) {
        return Ok(());
    }
    // Say where the block stops matching its longest matching start.
    let (best, at) = (0..have.len())
        .map(|s| {
            let n = want
                .iter()
                .zip(&have[s..])
                .take_while(|(a, b)| a == b)
                .count();
            (n, s)
        })
        .max()
        .unwrap_or((0, 0));
    Err(format!(
        "the block is not in {path}: its line {} `{}` differs from the file's `{}`",
        best + 1,
        want[best.min(want.len() - 1)],
        have.get(at + best).copied().unwrap_or("<end of file>")
    ))
}

/// One command of a console block and what it is shown printing.
#[derive(Debug, PartialEq)]
struct Step {
    command: String,
    expected: Vec<String>,
}

fn parse_console(body: &str) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    let mut continuing = false;
    for line in body.lines() {
        if continuing {
            let step = steps.last_mut().expect("a command is continued");
            step.command.push('\n');
            step.command.push_str(line);
            continuing = line.ends_with('\\');
        } else if let Some(command) = line.strip_prefix("$ ") {
            continuing = command.ends_with('\\');
            steps.push(Step {
                command: command.to_owned(),
                expected: Vec::new(),
            });
        } else if let Some(step) = steps.last_mut() {
            step.expected.push(line.to_owned());
        }
    }
    steps
}

const MARK: &str = "@@ferroscale-doctest@@";

fn check_console(env: &Environment, body: &str) -> Result<(), String> {
    let steps = parse_console(body);
    if steps.is_empty() {
        return Err("a console block without a `$ ` command".into());
    }
    let mut script = String::new();
    for (i, step) in steps.iter().enumerate() {
        script.push_str(&format!("printf '\\n{MARK}{i}\\n'\n{}\n", step.command));
    }
    script.push_str(&format!("printf '\\n{MARK}end\\n'\n"));
    let ran = env.run(Path::new("bash"), &["-c", &script], true)?;
    let mut outputs = Vec::new();
    let mut rest = ran.stdout.as_str();
    for i in 0..steps.len() {
        let start = format!("\n{MARK}{i}\n");
        let end = if i + 1 < steps.len() {
            format!("\n{MARK}{}\n", i + 1)
        } else {
            format!("\n{MARK}end\n")
        };
        let Some(from) = rest.find(&start) else {
            return Err(format!(
                "the block stopped before `{}`:\n{}",
                steps[i].command, ran.stdout
            ));
        };
        let after = &rest[from + start.len()..];
        let Some(to) = after.find(&end) else {
            return Err(format!(
                "the block stopped during `{}`:\n{}",
                steps[i].command, after
            ));
        };
        outputs.push(after[..to].to_owned());
        rest = &after[to..];
    }
    let mut report = String::new();
    for (step, got) in steps.iter().zip(&outputs) {
        let got_lines: Vec<&str> = got.lines().collect();
        let want: Vec<&str> = step.expected.iter().map(String::as_str).collect();
        if !lines_match(&want, &got_lines) {
            report.push_str(&format!(
                "$ {}\n--- the docs show:\n{}\n--- it printed:\n{}\n",
                step.command,
                step.expected.join("\n"),
                got
            ));
        }
    }
    if report.is_empty() {
        Ok(())
    } else {
        Err(report)
    }
}

fn check_python(env: &Environment, program: &str, expected: Option<&str>) -> Result<(), String> {
    if !env.python.exists() {
        return Err(format!(
            "{} is missing: `cargo xtask test` makes the venv with scalecodec installed",
            env.python.display()
        ));
    }
    let file = tempfile("py")?;
    std::fs::write(&file, program).map_err(|e| e.to_string())?;
    let ran = env.run(&env.python, &[&file.to_string_lossy()], false);
    let _ = std::fs::remove_file(&file);
    let ran = ran?;
    if !ran.success {
        return Err(format!("the program failed:\n{}{}", ran.stdout, ran.stderr));
    }
    if let Some(expected) = expected {
        let want: Vec<&str> = expected.lines().collect();
        let got: Vec<&str> = ran.stdout.lines().collect();
        if !lines_match(&want, &got) {
            return Err(format!(
                "--- the docs show:\n{expected}--- it printed:\n{}{}",
                ran.stdout, ran.stderr
            ));
        }
    }
    Ok(())
}

/// Shown lines against printed lines: `…` alone matches any run of lines,
/// `…` inside a line any text; trailing whitespace and trailing blank lines
/// are ignored.
fn lines_match(want: &[&str], got: &[&str]) -> bool {
    fn trim_tail<'a>(lines: &[&'a str]) -> Vec<&'a str> {
        let mut v: Vec<&str> = lines.iter().map(|l| l.trim_end()).collect();
        while v.last().is_some_and(|l| l.is_empty()) {
            v.pop();
        }
        v
    }
    let want = trim_tail(want);
    let got = trim_tail(got);
    // matched[i][j]: want[i..] matches got[j..]; filled from the end, so
    // the time is bounded by their product even with many `…` lines.
    let (w, g) = (want.len(), got.len());
    let mut matched = vec![vec![false; g + 1]; w + 1];
    matched[w][g] = true;
    for i in (0..w).rev() {
        for j in (0..=g).rev() {
            matched[i][j] = if want[i] == "…" {
                matched[i + 1][j] || (j < g && matched[i][j + 1])
            } else {
                j < g && line_matches(want[i], got[j]) && matched[i + 1][j + 1]
            };
        }
    }
    matched[0][0]
}

/// One shown line against one printed line, `…` matching any text.
fn line_matches(want: &str, got: &str) -> bool {
    let parts: Vec<&str> = want.split('…').collect();
    if parts.len() == 1 {
        return want == got;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !got.starts_with(first) || got.len() < first.len() + last.len() || !got.ends_with(last) {
        return false;
    }
    let mut rest = &got[first.len()..got.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ellipsis_matches_text_in_a_line_and_runs_of_lines() {
        assert!(line_matches("{\"a\": 1, …}", "{\"a\": 1, \"b\": 2}"));
        assert!(line_matches("0x712f…8305", "0x712fab8305"));
        assert!(!line_matches("0x712f…8305", "0x712f8305x"));
        assert!(!line_matches("0x712f…8305", "0x7128305"));
        assert!(line_matches("a…b…c", "a-b-c"));
        assert!(!line_matches("a…b…c", "a-c-b"));
        assert!(lines_match(&["x", "…", "z"], &["x", "z"]));
        assert!(lines_match(&["x", "…", "z"], &["x", "y", "y", "z"]));
        assert!(!lines_match(&["x", "…", "z"], &["x", "y"]));
        assert!(lines_match(&["x  ", ""], &["x"]));
        assert!(!lines_match(&["x"], &["x", "y"]));
        assert!(!lines_match(&[], &["printed"]));
    }

    #[test]
    fn console_blocks_split_into_commands_and_their_output() {
        let steps =
            parse_console("$ F=dir\n$ ferroscale decode u32 \\\n  0x01\nerror: …\n$ true\n");
        assert_eq!(
            steps,
            [
                Step {
                    command: "F=dir".into(),
                    expected: vec![]
                },
                Step {
                    command: "ferroscale decode u32 \\\n  0x01".into(),
                    expected: vec!["error: …".into()]
                },
                Step {
                    command: "true".into(),
                    expected: vec![]
                },
            ]
        );
    }

    #[test]
    fn blocks_carry_their_directive_and_lose_their_indentation() {
        let md = "text\n<!-- doctest: file examples/a.rs -->\n```rust\nfn main() {}\n```\n\n- item\n\n  ```console\n  $ ls\n  ```\n";
        let blocks = parse_blocks(md).unwrap();
        assert_eq!(blocks.len(), 2);
        assert_eq!(
            blocks[0].directive,
            Some(Directive::File("examples/a.rs".into()))
        );
        assert_eq!(blocks[0].line, 3);
        assert_eq!(blocks[1].lang, "console");
        assert_eq!(blocks[1].body, "$ ls\n");
        assert!(parse_blocks("```rust\nunclosed\n").is_err());
    }

    #[test]
    fn a_block_is_found_in_a_file_through_doc_comments_and_hidden_lines() {
        let file =
            "//! ```\n//! # fn main() {\n//! let a = 1;\n//!\n//! assert_eq!(a, 1);\n//! # }\n";
        let lines = comparable_lines(file);
        let want = comparable_lines("let a = 1;\n\nassert_eq!(a, 1);\n");
        assert!(lines.windows(want.len()).any(|w| w == want.as_slice()));
    }
}
