//! Unit tests of the known-answer file's parser: the CSV dialect field by
//! field, every rejected shape of a line naming its line, and the
//! compiled-in file itself. That every row reproduces is
//! `tests/published.rs`'s job.

use super::*;

const HEADER: &str = "game,quantity,parameters,value,tolerance,unit,source";

fn one_row(line: &str) -> Result<Vec<PublishedNumber>, PublishedError> {
    parse(&format!("{HEADER}\n{line}\n"))
}

/// The line and problem of a [`PublishedError::Row`].
fn row_error(error: PublishedError) -> (usize, String) {
    match error {
        PublishedError::Row { line, problem } => (line, problem),
        other => panic!("not a row error: {other}"),
    }
}

fn problem(line: &str) -> String {
    let (at, problem) = row_error(one_row(line).expect_err(line));
    assert_eq!(at, 2, "{problem}");
    problem
}

#[test]
fn fields_split_as_rfc_4180_quotes_them() {
    let split = |line| split_fields(line).unwrap();
    assert_eq!(split("a,b,c"), ["a", "b", "c"]);
    assert_eq!(split(""), [""]);
    assert_eq!(split("a,,"), ["a", "", ""]);
    assert_eq!(split(r#""x=(0,1) y=(1,0)",2"#), ["x=(0,1) y=(1,0)", "2"]);
    assert_eq!(
        split(r#"a,"say ""five"", twice""#),
        ["a", r#"say "five", twice"#]
    );
    assert_eq!(split(r#""""#), [""]);
    assert_eq!(split(r#""a",b"#), ["a", "b"]);
}

#[test]
fn bad_quotes_are_errors_naming_the_field() {
    let error = |line| split_fields(line).unwrap_err();
    assert!(error(r#"a,"open"#).contains("field 2 has no closing quote"));
    assert!(error(r#""a"b,c"#).contains("field 1 has 'b' after its closing quote"));
    assert!(error(r#"a,b"c"#).contains("field 2 has a quote but is not quoted"));
}

#[test]
fn a_row_parses_into_its_typed_fields() {
    let rows = one_row(
        r#"murder_plan,win_rate,"horizon=8;start=x=(0,1) y=(1,0)",77.37,0.005,percent,"spec, table""#,
    )
    .unwrap();
    let row = &rows[0];
    assert_eq!(row.line, 2);
    assert_eq!(
        (row.game.as_str(), row.quantity.as_str()),
        ("murder_plan", "win_rate")
    );
    assert_eq!(
        row.parameters,
        [
            ("horizon".to_string(), "8".to_string()),
            ("start".to_string(), "x=(0,1) y=(1,0)".to_string())
        ]
    );
    assert_eq!(row.parameters_text(), "horizon=8;start=x=(0,1) y=(1,0)");
    assert_eq!(row.parameter("start"), Some("x=(0,1) y=(1,0)"));
    assert_eq!(row.parse_parameter::<u8>("horizon").unwrap(), 8);
    assert_eq!((row.value, row.value_text.as_str()), (77.37, "77.37"));
    assert_eq!((row.tolerance, row.unit), (0.005, Unit::Percent));
    assert_eq!(row.source, "spec, table");
    assert_eq!(
        row.name(),
        "murder_plan win_rate horizon=8;start=x=(0,1) y=(1,0)"
    );
}

#[test]
fn parameters_are_checked_by_name() {
    let rows = one_row("dice,ev_open,bid_count=5;reliability=0.5,0.043,0.0005,payoff,s");
    let row = &rows.unwrap()[0];
    assert!(row.expect_parameters(&["reliability", "bid_count"]).is_ok());
    let missing = row.expect_parameters(&["bid_count", "reliability", "my_matching"]);
    let (line, missing) = row_error(missing.unwrap_err());
    assert_eq!(line, 2);
    assert!(
        missing.contains("no parameter \"my_matching\""),
        "{missing}"
    );
    let (_, extra) = row_error(row.expect_parameters(&["bid_count"]).unwrap_err());
    assert!(
        extra.contains("unexpected parameter \"reliability\""),
        "{extra}"
    );
    assert_eq!(row.parse_parameter::<f64>("reliability").unwrap(), 0.5);
    let bad = row.parse_parameter::<u32>("reliability").unwrap_err();
    assert_eq!(
        bad.to_string(),
        "data/published.csv line 2: dice ev_open bid_count=5;reliability=0.5: \
         parameter reliability=\"0.5\" does not parse"
    );
    assert!(row.parse_parameter::<u32>("players").is_err());
    let none = &one_row("werewolf,wolf_sets,,495,0,count,s").unwrap()[0];
    assert!(none.parameters.is_empty());
    assert!(none.expect_parameters(&[]).is_ok());
}

#[test]
fn reproduced_means_within_the_tolerance() {
    let row = &one_row("dice,raw_probability,q=5,0.2315,0.00005,probability,s").unwrap()[0];
    assert!(row.reproduced_by(0.231519));
    assert!(row.reproduced_by(0.23146));
    assert!(!row.reproduced_by(0.23156));
    assert!(!row.reproduced_by(0.2316));
    assert!(!row.reproduced_by(f64::NAN));
    let count = &one_row("cluedo,deals,players=3,5557616064,0,count,s").unwrap()[0];
    assert!(count.reproduced_by(5_557_616_064.0));
    assert!(!count.reproduced_by(5_557_616_065.0));
}

#[test]
fn malformed_rows_are_errors_naming_line_and_problem() {
    assert!(problem("a,b,c").contains("3 fields, expected 7"));
    assert!(problem("a,b,,1,0,count,s,extra").contains("8 fields"));
    assert!(problem("Murder,q,,1,0,count,s").contains("game \"Murder\""));
    assert!(problem("g,,,1,0,count,s").contains("quantity \"\""));
    assert!(problem("g,q,,1,0,percents,s").contains("unknown unit \"percents\""));
    assert!(problem("g,q,,x,0,count,s").contains("value \"x\" is not a finite number"));
    assert!(problem("g,q,,NaN,0,probability,s").contains("not a finite number"));
    assert!(problem("g,q,,0.5,inf,probability,s").contains("tolerance \"inf\""));
    assert!(problem("g,q,,0.5,-1e-3,probability,s").contains("negative tolerance"));
    assert!(problem("g,q,,5.56e9,0,count,s").contains("not an integer below 2^53"));
    assert!(problem("g,q,,9007199254740993,0,count,s").contains("below 2^53"));
    assert!(problem("g,q,,1,0,count,").contains("empty source"));
    assert!(problem("g,q,a=1;b,1,0,count,s").contains("parameter \"b\" is not name=value"));
    assert!(problem("g,q,a=,1,0,count,s").contains("is not name=value"));
    assert!(problem("g,q,A=1,1,0,count,s").contains("is not name=value"));
    assert!(problem("g,q,a=1;a=2,1,0,count,s").contains("given twice"));
    assert!(problem(r#"g,q,"a=1,1,0,count,s"#).contains("no closing quote"));
}

#[test]
fn a_repeated_case_and_a_wrong_header_are_refused() {
    let text =
        format!("{HEADER}\ng,q,a=1,1,0,count,s\n\ng,q,a=2,1,0,count,s\ng,q,a=1,2,0,count,t\n");
    let (line, problem) = row_error(parse(&text).unwrap_err());
    assert_eq!(line, 5);
    assert!(problem.contains("g q a=1 repeats line 2"), "{problem}");
    let error = parse("game,quantity,parameters,value,tolerance,source\n").unwrap_err();
    let (line, problem) = row_error(error);
    assert_eq!(line, 1);
    assert!(problem.contains("header"), "{problem}");
    assert_eq!(row_error(parse("").unwrap_err()).0, 1);
    // The header alone, with Windows line ends: no rows.
    assert_eq!(parse(&format!("{HEADER}\r\n")).unwrap(), []);
}

#[test]
fn the_compiled_file_parses_every_line() {
    let rows = all().unwrap();
    let lines = CSV.lines().skip(1).filter(|l| !l.is_empty()).count();
    assert_eq!(rows.len(), lines);
    assert!(CSV.starts_with(&format!("{HEADER}\n")));
    for game in ["murder_plan", "dice", "cluedo", "werewolf"] {
        assert!(rows.iter().any(|r| r.game == game), "no {game} row");
    }
    // The lookups the plots and tests use find the row of their line.
    let row = find("murder_plan", "win_rate", "horizon=8;start=average").unwrap();
    assert_eq!(row.parameters_text(), "horizon=8;start=average");
    let line = CSV.lines().nth(row.line - 1).unwrap();
    assert!(line.starts_with("murder_plan,win_rate,horizon=8;start=average,"));
    assert!(line.contains(&format!(",{},", row.value_text)), "{line}");
    let win_rate_lines = CSV
        .lines()
        .filter(|l| l.starts_with("murder_plan,win_rate,"))
        .count();
    assert_eq!(
        select("murder_plan", "win_rate").unwrap().len(),
        win_rate_lines
    );
    let error = find("murder_plan", "win_rate", "horizon=9;start=average").unwrap_err();
    assert_eq!(
        error.to_string(),
        "data/published.csv has no row murder_plan win_rate horizon=9;start=average"
    );
}
