//! Terminal helpers shared by the subcommands.

use std::io::IsTerminal;

/// Whether to use ANSI colours on standard output.
pub fn color_wanted(no_color: bool) -> bool {
    !no_color && std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal()
}

/// Whether a progress bar makes sense (standard error is a terminal).
pub fn progress_wanted(json: bool) -> bool {
    !json && std::io::stderr().is_terminal()
}

/// A progress bar for `total` steps, hidden when not wanted.
pub fn progress(total: u64, show: bool) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  eta {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}
