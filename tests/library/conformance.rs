//! The conformance cases (the project's copy of the shared spec/cases), read through the
//! capture loader (envelopes included) and checked with the contract's subset rule.

use crate::support;

use jxray::capture::{self, LoadOptions};

#[test]
fn every_case_meets_the_contract() {
    let dir = support::cases::cases_dir();
    let cases = support::cases::read_cases(&dir).expect("the cases folder is readable");
    assert!(!cases.is_empty(), "no cases in {}", dir.display());
    let mut problems = Vec::new();
    for case in &cases {
        let case = match case {
            Ok(case) => case,
            Err(error) => {
                problems.push(error.clone());
                continue;
            }
        };
        let result = capture::load(&case.path, &LoadOptions::default())
            .map_err(|error| error.to_string())
            .and_then(|captures| support::cases::verify(case, &captures));
        if let Err(why) = result {
            problems.push(format!("{}: {why}", case.name));
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {} cases disagree with the contract:\n{}",
        problems.len(),
        cases.len(),
        problems.join("\n")
    );
}
