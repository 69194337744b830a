//! What more than one test file needs.

/// Checks that the README's section between `<!-- NAME:begin -->` and `<!-- NAME:end -->` is
/// `section`, as the core generates it; with `UPDATE_README` set, writes it there instead.
/// `test` names the test file, for the message that says how to regenerate.
pub fn readme_section(name: &str, section: &str, test: &str) {
    let path = format!("{}/README.md", env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(&path).unwrap();
    let (begin, end) = (
        format!("<!-- {name}:begin -->\n"),
        format!("<!-- {name}:end -->"),
    );
    let start = readme.find(&begin).expect("README has the markers") + begin.len();
    let stop = readme.find(&end).expect("README has the markers");
    if std::env::var_os("UPDATE_README").is_some() {
        std::fs::write(
            &path,
            format!("{}{section}{}", &readme[..start], &readme[stop..]),
        )
        .unwrap();
        return;
    }
    assert_eq!(
        &readme[start..stop],
        section,
        "run UPDATE_README=1 cargo test --test {test}"
    );
}
