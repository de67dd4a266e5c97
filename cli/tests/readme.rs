//! Keeps the README's `poly` examples honest: every ```console block of
//! README.md is replayed. `$ cat FILE` must be followed by the file's exact
//! contents, and `$ poly ARGS` (run from the repository root with the built
//! binary) by exactly what it prints.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace root")
        .to_path_buf()
}

/// One `$ COMMAND` line of a console block and the lines shown after it.
struct Step {
    command: String,
    shown: String,
}

fn console_steps(readme: &str) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    let mut in_block = false;
    for line in readme.lines() {
        if !in_block {
            in_block = line.trim_end() == "```console";
            continue;
        }
        if line.trim_end() == "```" {
            in_block = false;
        } else if let Some(command) = line.strip_prefix("$ ") {
            steps.push(Step {
                command: command.to_string(),
                shown: String::new(),
            });
        } else {
            let step = steps
                .last_mut()
                .expect("a console block starts with a `$ ` line");
            step.shown.push_str(line);
            step.shown.push('\n');
        }
    }
    steps
}

#[test]
fn the_readme_console_blocks_show_what_poly_prints() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let steps = console_steps(&readme);
    let mut poly_runs = 0;
    for step in &steps {
        let words: Vec<&str> = step.command.split_whitespace().collect();
        match words.as_slice() {
            ["cat", file] => {
                let text = std::fs::read_to_string(root().join(file))
                    .unwrap_or_else(|e| panic!("README shows `cat {file}`: {e}"));
                assert_eq!(
                    step.shown, text,
                    "README's copy of {file} differs from the file"
                );
            }
            ["poly", args @ ..] => {
                let out = Command::new(env!("CARGO_BIN_EXE_poly"))
                    .args(args)
                    .current_dir(root())
                    .output()
                    .expect("poly runs");
                assert!(
                    out.status.success(),
                    "`{}` failed: {}",
                    step.command,
                    String::from_utf8_lossy(&out.stderr)
                );
                assert_eq!(
                    String::from_utf8_lossy(&out.stdout),
                    step.shown,
                    "README shows another output for `{}`",
                    step.command
                );
                poly_runs += 1;
            }
            _ => panic!(
                "a console block of README.md runs `{}`, which this test cannot check",
                step.command
            ),
        }
    }
    assert!(
        poly_runs >= 2,
        "README.md should show the calc and codegen examples"
    );
}
