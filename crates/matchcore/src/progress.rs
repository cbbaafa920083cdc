//! Progress bars: one builder for every command that shows one (matches,
//! SPSA, the GA, ablation, datagen, tuning, training, book building), so
//! that they all draw to stderr, hide alike and never panic on a template.

use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// The style of `template` (indicatif's syntax, e.g. `{bar:30} {pos}/{len}`);
/// indicatif's plain bar if the template cannot be read. Besides
/// indicatif's keys, `{rate}` is the steps a second as a whole number with
/// thousands separators (`260,516`), where indicatif's `{per_sec}` gives
/// four decimals (`260,515.8295/s`).
pub fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template).map_or_else(
        |_| ProgressStyle::default_bar(),
        |style| {
            style.with_key(
                "rate",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}", HumanCount(state.per_sec().round() as u64));
                },
            )
        },
    )
}

/// A bar of `len` steps drawn with `template` on stderr.
pub fn bar(len: u64, template: &str) -> ProgressBar {
    ProgressBar::new(len).with_style(style(template))
}

/// [`bar`], or a hidden bar (which draws nothing) when `shown` is false.
pub fn bar_if(shown: bool, len: u64, template: &str) -> ProgressBar {
    if shown {
        bar(len, template)
    } else {
        ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden())
            .with_style(style(template))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_keep_their_length_and_bad_templates_fall_back() {
        let b = bar(7, "{bar:30} {pos}/{len} games {msg}");
        assert_eq!(b.length(), Some(7));
        let hidden = bar_if(false, 3, "{wide_bar}");
        assert!(hidden.is_hidden());
        assert_eq!(hidden.length(), Some(3));
        // An unclosed brace is not a template: the plain bar is used.
        let _ = bar(1, "{bar");
    }
}
