//! Lines wider than a pixel in the PNG, each pixel once, the same width at every angle.
//!
//! plotters' bitmap backend turns a wide path into a polygon whose corners it rounds to whole
//! pixels (a 3-pixel line's edges lie 1.5 pixels off its centre) and fills that polygon
//! half-open: one line came out 2 pixels wide on one segment and 5 on the next. Here a pixel
//! belongs to the stroke when its centre lies within half the width of the path (a segment
//! with round ends, so joins are round too): horizontal, vertical and slanted lines of width 3
//! are 3 pixels across.

use plotters_backend::BackendCoord;

/// The pixels of the path through `points` stroked `width` pixels wide, sorted, each once
/// (a colour with alpha is blended once per pixel).
pub(super) fn stroke_pixels(points: &[BackendCoord], width: u32) -> Vec<BackendCoord> {
    let r = f64::from(width) / 2.0;
    let reach = r.ceil() as i32;
    // An even width has no centre pixel: the path runs through pixel corners (half a pixel
    // right and down), so that a line 2 wide covers 2 pixels across, not 1 or 3.
    let shift = if width.is_multiple_of(2) { 0.5 } else { 0.0 };
    let mut out = Vec::new();
    let segments: Vec<(BackendCoord, BackendCoord)> = match points {
        [one] => vec![(*one, *one)],
        _ => points.windows(2).map(|w| (w[0], w[1])).collect(),
    };
    for (a, b) in segments {
        let (ax, ay) = (f64::from(a.0), f64::from(a.1));
        let (dx, dy) = (f64::from(b.0 - a.0), f64::from(b.1 - a.1));
        let len2 = dx * dx + dy * dy;
        for y in a.1.min(b.1) - reach..=a.1.max(b.1) + reach {
            for x in a.0.min(b.0) - reach..=a.0.max(b.0) + reach {
                let (px, py) = (f64::from(x) - ax - shift, f64::from(y) - ay - shift);
                // The nearest point of the segment: t along it, clamped to its ends.
                let t = if len2 > 0.0 {
                    ((px * dx + py * dy) / len2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let (ex, ey) = (px - t * dx, py - t * dy);
                if ex * ex + ey * ey <= r * r {
                    out.push((x, y));
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pixels a line covers across its direction, at its middle: a horizontal, a vertical
    /// and slanted lines (going up and going down, which plotters drew 2 and 5 pixels wide at
    /// width 3) are as many pixels across as their width, measured along the axis nearer their
    /// normal (exactly, for the horizontal and the vertical line).
    #[test]
    fn a_wide_line_is_as_wide_at_every_angle() {
        for width in [2, 3, 4] {
            as_wide_at_every_angle(width);
        }
        // Each pixel once, and a path's joint is covered.
        let path = stroke_pixels(&[(0, 0), (50, 30), (100, 0)], 3);
        let mut unique = path.clone();
        unique.dedup();
        assert_eq!(unique.len(), path.len());
        assert!(path.contains(&(50, 30)) && path.contains(&(50, 31)));
    }

    fn as_wide_at_every_angle(width: u32) {
        for (to, across_rows) in [
            ((100, 0), true),
            ((0, 100), false),
            ((100, 12), true),
            ((100, -12), true),
            ((100, 40), true),
            ((100, -40), true),
        ] {
            let px = stroke_pixels(&[(0, 0), to], width);
            let mid = (to.0 / 2, to.1 / 2);
            let count = if across_rows {
                px.iter().filter(|p| p.0 == mid.0).count()
            } else {
                px.iter().filter(|p| p.1 == mid.1).count()
            };
            // A slant of dy/dx makes a column cut the stroke longer: 3 / cos(angle).
            let slant = if across_rows {
                (f64::from(to.1) / f64::from(to.0)).abs()
            } else {
                0.0
            };
            let expected = f64::from(width) * (1.0 + slant * slant).sqrt();
            assert!(
                (count as f64 - expected).abs() <= 1.0,
                "width {width} to {to:?}: {count} pixels across, expected about {expected:.1}"
            );
            if slant == 0.0 {
                assert_eq!(count, width as usize, "width {width} to {to:?}");
            }
        }
    }
}
