//! `OneOrMany<T>`: a key given as one value or as a list of values. Lists expand into the
//! experiment's grid. Errors keep the span of the offending value, so messages carry
//! line:column.

use std::fmt;
use std::marker::PhantomData;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{self, Deserialize, Deserializer, IntoDeserializer, SeqAccess, Visitor};

/// `REPEATS`: whether the list may name a value twice. A grid's lists may not (the repeat
/// would search the same runs again); a list of files may (its positions repeat, with the
/// warning repeated positions get).
#[derive(Clone, Debug, PartialEq)]
pub struct OneOrMany<T, const REPEATS: bool = false>(pub Vec<T>);

impl<T, const REPEATS: bool> OneOrMany<T, REPEATS> {
    pub fn values(&self) -> &[T] {
        &self.0
    }
}

/// The words for a repeat that `first_repeat` found at (`i`, `j`): "item J of the list
/// repeats item I", counted from 1. The config reader places an error in these words at
/// item J.
pub fn repeat_words(i: usize, j: usize) -> String {
    format!("item {} of the list repeats item {}", j + 1, i + 1)
}

/// The first value of `v` that an earlier one equals, as (earlier, later) indexes.
pub fn first_repeat<T: PartialEq>(v: &[T]) -> Option<(usize, usize)> {
    (1..v.len()).find_map(|j| v[..j].iter().position(|x| *x == v[j]).map(|i| (i, j)))
}

impl<'de, T: Deserialize<'de> + PartialEq, const REPEATS: bool> Deserialize<'de>
    for OneOrMany<T, REPEATS>
{
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T, const R: bool>(PhantomData<T>);
        impl<'de, T: Deserialize<'de> + PartialEq, const R: bool> Visitor<'de> for V<T, R> {
            type Value = OneOrMany<T, R>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a value or a list of values")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
                T::deserialize(v.into_deserializer()).map(|t| OneOrMany(vec![t]))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                T::deserialize(v.into_deserializer()).map(|t| OneOrMany(vec![t]))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                T::deserialize(v.into_deserializer()).map(|t| OneOrMany(vec![t]))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
                T::deserialize(v.into_deserializer()).map(|t| OneOrMany(vec![t]))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                T::deserialize(v.into_deserializer()).map(|t| OneOrMany(vec![t]))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                T::deserialize(v.into_deserializer()).map(|t| OneOrMany(vec![t]))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, m: A) -> Result<Self::Value, A::Error> {
                T::deserialize(MapAccessDeserializer::new(m)).map(|t| OneOrMany(vec![t]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(t) = s.next_element::<T>()? {
                    out.push(t);
                }
                if out.is_empty() {
                    return Err(de::Error::custom("an empty list gives no runs"));
                }
                // A repeated value would search the same runs again (or, where runs are
                // kept once by key, silently not): most likely a typo for another value.
                if let Some((i, j)) = first_repeat(&out).filter(|_| !R) {
                    return Err(de::Error::custom(format!(
                        "{}; allowed: each value once",
                        repeat_words(i, j)
                    )));
                }
                Ok(OneOrMany(out))
            }
        }
        d.deserialize_any(V(PhantomData))
    }
}

/// Deserializes `T` from a sequence (for values such as a composite ordering written as a
/// nested list).
pub fn from_seq<'de, T: Deserialize<'de>, A: SeqAccess<'de>>(s: A) -> Result<T, A::Error> {
    T::deserialize(SeqAccessDeserializer::new(s))
}
