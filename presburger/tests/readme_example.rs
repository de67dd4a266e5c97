//! Keeps the README's library example honest: the code in `readme/example.rs`
//! is compiled and run here, and README.md must show exactly that code in a
//! ```rust block, so the two cannot drift apart.

mod example {
    include!("readme/example.rs");

    pub fn run() -> Result<(), presburger::Error> {
        main()
    }
}

#[test]
fn the_readme_example_runs() {
    example::run().expect("the README example returns Ok");
}

#[test]
fn the_readme_shows_the_tested_example() {
    let readme = include_str!("../../README.md");
    let code = include_str!("readme/example.rs");
    let block = format!("```rust\n{code}```\n");
    assert!(
        readme.contains(&block),
        "README.md must contain presburger/tests/readme/example.rs verbatim in a ```rust block"
    );
}
