//! Every table and every column defined in the lookup crate's schemas is
//! documented in tables/README.md, within the section (level-2 heading) that
//! documents the table's file. The one check for every game.

use gametab_lookup::schema::TableSchema;

/// Every table of every game of the registry.
fn all_schemas() -> Vec<TableSchema> {
    gametab_lookup::all_schemas().copied().collect()
}

#[test]
fn every_table_and_column_is_documented() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tables/README.md"))
        .expect("tables/README.md exists");
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
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tables/README.md"))
        .expect("tables/README.md exists");
    for derived in gametab_lookup::all_derived() {
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
