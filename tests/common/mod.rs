//! What more than one test file needs.

/// Checks that the README's section between `<!-- NAME:begin -->` and `<!-- NAME:end -->` is
/// `section`, as the core generates it; with `UPDATE_README` set, writes it there instead.
/// `test` names the test file, for the message that says how to regenerate.
#[allow(dead_code)] // Not every test file that shares this module generates a part of the README.
pub fn readme_section(name: &str, section: &str, test: &str) {
    generated_section("README.md", name, section, test);
}

/// [`readme_section`] for the page, `www/index.html`, where a copy of the repository has it (the
/// crate's package has no page: there the section is not checked).
#[allow(dead_code)] // Not every test file that shares this module generates a part of the page.
pub fn page_section(name: &str, section: &str, test: &str) {
    if std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/www/index.html")).exists() {
        generated_section("www/index.html", name, section, test);
    }
}

/// Checks that `file` (from the repository's root) holds `section` between the markers
/// `<!-- {name}:begin -->` and `<!-- {name}:end -->`, or, with `UPDATE_README` set, writes it
/// there.
fn generated_section(file: &str, name: &str, section: &str, test: &str) {
    let path = format!("{}/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let (begin, end) = (
        format!("<!-- {name}:begin -->\n"),
        format!("<!-- {name}:end -->"),
    );
    let start = text.find(&begin).expect("the file has the markers") + begin.len();
    let stop = text.find(&end).expect("the file has the markers");
    if std::env::var_os("UPDATE_README").is_some() {
        std::fs::write(
            &path,
            format!("{}{section}{}", &text[..start], &text[stop..]),
        )
        .unwrap();
        return;
    }
    assert_eq!(
        &text[start..stop],
        section,
        "{file} is out of date: run UPDATE_README=1 cargo test --test {test}"
    );
}
