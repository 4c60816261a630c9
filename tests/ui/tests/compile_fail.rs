//! Compile errors of the derive: each names the problem, points at it and says the fix;
//! and what must compile.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("fail/*.rs");
    t.pass("pass/*.rs");
}
