//! Uniform trees in the plan: their setups (branching × height × values × model), their
//! positions (one per tree), and where an error about their size points.

use std::path::Path;

use super::keys::{fnv1a, mix};
use super::GameSetup;
use crate::error::Result;
use crate::experiment::config::{at, item_span, Depth, ExperimentFile, GameSection, IntGrid};
use crate::games::uniform::{Model, Uniform, UniformSpec, Values};

/// The uniform-tree setups: branching × height × values × model, each validated.
pub fn uniform_setups(path: &Path, src: &str, g: &GameSection) -> Result<Vec<GameSetup>> {
    use crate::experiment::config::UniformValues;
    let kind_span = g.kind.span();
    let span_of = |key: &str| -> std::ops::Range<usize> {
        match key {
            "branching" => g.branching.as_ref().map(|x| x.span()),
            "height" => g.height.as_ref().map(|x| x.span()),
            "values" => g.values.as_ref().map(|x| x.span()),
            "range" => g.range.as_ref().map(|x| x.span()),
            "model" => g.model.as_ref().map(|x| x.span()),
            _ => None,
        }
        .unwrap_or_else(|| kind_span.clone())
    };
    let need = |key: &str, example: &str| {
        at(
            path,
            src,
            kind_span.clone(),
            format!("[game] {key} is missing: a uniform tree needs it, e.g. {example}"),
        )
    };
    let branching = g
        .branching
        .as_ref()
        .ok_or_else(|| need("branching", "branching = 3"))?;
    let height = g
        .height
        .as_ref()
        .ok_or_else(|| need("height", "height = 5 or height = { from = 1, to = 8 }"))?;
    // An error about one number of a list or range: at that number.
    let item_of = |key: &str, i: usize| item_span(src, span_of(key), i);
    for (i, &b) in branching.get_ref().values.iter().enumerate() {
        if !(2..=crate::games::uniform::MAX_BRANCHING as i64).contains(&b) {
            return Err(at(
                path,
                src,
                item_of("branching", i),
                format!(
                "[game] branching = {b}: a uniform tree needs a branching factor b from 2 to {}",
                crate::games::uniform::MAX_BRANCHING
            ),
            ));
        }
    }
    for (i, &d) in height.get_ref().values.iter().enumerate() {
        if !(1..=crate::games::uniform::MAX_HEIGHT as i64).contains(&d) {
            return Err(at(path, src, item_of("height", i), format!(
                "[game] height = {d}: a uniform tree needs a height d (the depth of its leaves) from 1 to {}",
                crate::games::uniform::MAX_HEIGHT
            )));
        }
    }
    let listed = |key: &str, grid: &IntGrid| {
        grid.listed()
            .map(<[i64]>::to_vec)
            .map_err(|msg| at(path, src, span_of(key), format!("`{key}`: {msg}")))
    };
    let branchings = listed("branching", branching.get_ref())?;
    let heights = listed("height", height.get_ref())?;
    let value_names: Vec<UniformValues> = g
        .values
        .as_ref()
        .map(|v| v.get_ref().values().iter().map(|n| n.0).collect())
        .unwrap_or_else(|| vec![UniformValues::Distinct]);
    let (lo, hi) = match &g.range {
        Some(r) => {
            if !value_names.contains(&UniformValues::Integer) {
                return Err(at(
                    path,
                    src,
                    r.span(),
                    "[game] range applies only to values = \"integer\"; allowed: leave range out, or add \"integer\" to values",
                ));
            }
            match r.get_ref().as_slice() {
                [lo, hi]
                    if lo <= hi
                        && *lo >= -crate::games::uniform::MAX_INTEGER
                        && *hi <= crate::games::uniform::MAX_INTEGER =>
                {
                    (*lo as i32, *hi as i32)
                }
                bad => {
                    // At the end past the bound; the list when the ends are reversed or
                    // there are not two.
                    let m = crate::games::uniform::MAX_INTEGER;
                    let span = match bad {
                        [lo, _] if !(-m..=m).contains(lo) => item_span(src, r.span(), 0),
                        [_, hi] if !(-m..=m).contains(hi) => item_span(src, r.span(), 1),
                        _ => r.span(),
                    };
                    return Err(at(
                        path,
                        src,
                        span,
                        format!(
                            "[game] range must be [lo, hi] with lo <= hi, both within -{m}..{m}"
                        ),
                    ));
                }
            }
        }
        None => (-100, 100),
    };
    let models: Vec<Model> = g
        .model
        .as_ref()
        .map(|v| v.get_ref().values().iter().map(|n| n.0).collect())
        .unwrap_or_else(|| vec![Model::Independent]);
    let mut out = Vec::new();
    for (bi, &b) in branchings.iter().enumerate() {
        for (di, &d) in heights.iter().enumerate() {
            for &v in &value_names {
                for &model in &models {
                    let values = match v {
                        UniformValues::Distinct => Values::Distinct,
                        UniformValues::Continuous => Values::Continuous,
                        UniformValues::Integer => Values::Integer { lo, hi },
                    };
                    let spec = UniformSpec {
                        branching: b as u32,
                        height: d as u32,
                        values,
                        model,
                    };
                    spec.validate().map_err(|(key, msg)| {
                        let span = match key {
                            "branching" => item_of(key, bi),
                            "height" => item_of(key, di),
                            _ => span_of(key),
                        };
                        // A pair the lists make, not one the file wrote: say so.
                        let grid = if key == "model" && (value_names.len() > 1 || models.len() > 1) {
                            " (the lists pair every value kind with every model; run the pairs that work as experiments of their own)"
                        } else {
                            ""
                        };
                        at(path, src, span, format!("[game] {msg}{grid}"))
                    })?;
                    out.push(GameSetup::Uniform { spec });
                }
            }
        }
    }
    Ok(out)
}

/// The positions of a uniform setup: tree t's seed is derived from the experiment seed and
/// the tree's key, the run key's game part (`game=uniform;branching=..;...;tree=t`), so every
/// algorithm, variant, depth, ordering and repetition of tree t searches the same tree.
pub fn uniform_positions(spec: &UniformSpec, experiment_seed: u64, trees: usize) -> Vec<String> {
    use crate::games::Game;
    let prefix = GameSetup::Uniform { spec: *spec }.key_text();
    (0..trees)
        .map(|t| {
            let seed = mix(experiment_seed, fnv1a(&format!("{prefix};tree={t}")));
            Uniform::new(*spec, t as u64, seed).format_position()
        })
        .collect()
}

/// The plies a search of `depth` reads on a uniform tree: at most its height.
pub fn uniform_plies(depth: Depth, spec: &UniformSpec) -> u32 {
    match depth {
        Depth::Plies(p) => p.min(spec.height),
        Depth::Full => spec.height,
    }
}

/// Where an error about a uniform tree's size points: `[game] height`, else the game's kind.
pub fn height_span(file: &ExperimentFile) -> std::ops::Range<usize> {
    file.game
        .height
        .as_ref()
        .map(|h| h.span())
        .unwrap_or_else(|| file.game.kind.span())
}
