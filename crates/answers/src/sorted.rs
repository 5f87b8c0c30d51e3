//! Documents whose keys serialise sorted at every level, as the
//! `serde_json::json!` values they replaced did (a `serde_json::Value`
//! keeps its keys in order): the typed struct is the document's definition,
//! and its bytes stay those clients already parse. A type opts in with
//! `#[derive(Serialize)] #[serde(remote = "Self")]` (serde's derive then
//! writes an inherent `serialize`, which [`sorted_keys!`] wraps).

/// Implement `Serialize` for each type as its derived fields, passed
/// through a `serde_json::Value` so that keys come out sorted.
macro_rules! sorted_keys {
    ($($t:ty),* $(,)?) => {$(
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                struct Fields<'a>(&'a $t);
                impl serde::Serialize for Fields<'_> {
                    fn serialize<S: serde::Serializer>(
                        &self,
                        serializer: S,
                    ) -> Result<S::Ok, S::Error> {
                        <$t>::serialize(self.0, serializer)
                    }
                }
                serde_json::to_value(Fields(self))
                    .map_err(serde::ser::Error::custom)?
                    .serialize(serializer)
            }
        }
    )*};
}

pub(crate) use sorted_keys;
