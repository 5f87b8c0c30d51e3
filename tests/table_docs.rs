//! Every table and every column defined in the lookup crate's schemas is
//! documented in the table dictionary, within the section (level-2 heading)
//! that documents the table's file. The one check for every game.
//!
//! The dictionary lives twice: `docs/tables.md` (the documentation) and
//! `tables/README.md` (carried into every table set, so that a set read
//! without the repository still explains itself). The two must be the same
//! bytes; the schema checks then hold for both.

use gametab_lookup::schema::TableSchema;

/// Every table of every game of the registry.
fn all_schemas() -> Vec<TableSchema> {
    gametab_lookup::registry::all_schemas().copied().collect()
}

/// The table dictionary, `docs/tables.md`.
fn dictionary() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/tables.md"))
        .expect("docs/tables.md exists")
}

#[test]
fn the_table_sets_readme_is_the_dictionary() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tables/README.md"))
        .expect("tables/README.md exists");
    assert!(
        readme == dictionary(),
        "tables/README.md differs from docs/tables.md: edit docs/tables.md and copy it \
         (cp docs/tables.md tables/README.md)"
    );
}

#[test]
fn every_table_and_column_is_documented() {
    let readme = dictionary();
    let sections: Vec<&str> = readme.split("\n## ").collect();
    for schema in all_schemas() {
        let section = sections
            .iter()
            .find(|section| section.contains(schema.file))
            .unwrap_or_else(|| panic!("{} is not documented", schema.file));
        for column in schema.columns {
            assert!(
                section.contains(&format!("| `{}` |", column.name)),
                "column {} of {} is not documented in its section",
                column.name,
                schema.name
            );
        }
    }
}

#[test]
fn every_derived_file_and_its_format_version_is_documented() {
    let readme = dictionary();
    for derived in gametab_lookup::registry::all_derived() {
        let heading = format!("### `{}` (", derived.file);
        let section = readme
            .split("\n### ")
            .find(|section| section.starts_with(&heading[4..]))
            .unwrap_or_else(|| panic!("{} has no section of its own", derived.file));
        assert!(
            section.contains(&format!("format version {})", derived.version)),
            "the section of {} does not name format version {}",
            derived.file,
            derived.version
        );
    }
}
