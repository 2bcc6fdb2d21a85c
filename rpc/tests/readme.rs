//! The README's `ferroscale-rpc` example is `examples/from_a_node.rs`,
//! which `cargo test` builds: the text a reader copies compiles.

const README: &str = include_str!("../../README.md");
const EXAMPLE: &str = include_str!("../examples/from_a_node.rs");

#[test]
fn the_readme_shows_the_example_exactly() {
    let main = &EXAMPLE[EXAMPLE.find("fn main()").expect("the example has a main")..];
    let block = format!("\n```rust\n{main}```\n");
    assert!(
        README.contains(&block),
        "README's ferroscale-rpc block differs from rpc/examples/from_a_node.rs's main"
    );
}
