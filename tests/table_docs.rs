//! Every table and every column defined in the lookup crate's schemas is
//! documented in tables/README.md.

use gametab_lookup::schema::TableSchema;

fn all_schemas() -> Vec<TableSchema> {
    let mut all = gametab_lookup::murder_plan::schema::ALL.to_vec();
    all.extend(extra_schemas());
    all
}

/// Schemas of the other games.
fn extra_schemas() -> Vec<TableSchema> {
    let mut extra = vec![
        gametab_lookup::cluedo::schema::FEW_CANDIDATES,
        gametab_lookup::werewolf::schema::WEREWOLF_EARLY,
    ];
    extra.extend(gametab_lookup::dice::schema::ALL);
    extra
}

#[test]
fn every_table_and_column_is_documented() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tables/README.md"))
        .expect("tables/README.md exists");
    for schema in all_schemas() {
        assert!(
            readme.contains(&format!("`{}`", schema.file)) || readme.contains(schema.file),
            "{} is not documented",
            schema.file
        );
        for column in schema.columns {
            assert!(
                readme.contains(&format!("| `{}` |", column.name)),
                "column {} of {} is not documented",
                column.name,
                schema.name
            );
        }
    }
}
