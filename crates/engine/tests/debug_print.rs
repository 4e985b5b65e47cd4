mod common;
#[test]
fn print_suite() {
    let Ok(f) = std::env::var("PW_FUNC") else { return };
    let file = std::env::var("PW_FILE").unwrap();
    let k: u32 = std::env::var("PW_K").map(|s| s.parse().unwrap()).unwrap_or(2);
    let program = common::compile(std::path::Path::new(&file));
    let suite = common::generate(&program, &common::config(&f, None, k));
    for t in &suite.tests {
        let p: Vec<String> = t.path.iter().map(|s| format!("{}:{}{}", s.loc.line, s.loc.col, if s.taken {"T"} else {"F"})).collect();
        println!("{:?} ret={:?} path={}", t.inputs, t.ret, p.join(" "));
    }
    println!("{:?}", suite.stats);
}
