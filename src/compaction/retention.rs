//! A bounded live session ([`SessionConfig::with_retention`]): a session forgets the turns that
//! folded long ago, so that its memory and its save follow the window, not the transcript.

use crate::compaction::{SessionConfig, SessionConfigBuilder};

/// Whether a session can forget old turns: not in this project's own wasm builds
/// (`wasm-runtime`), whose JS API has no option for it, so that they carry none of its code. No
/// answer the JS API can give changes.
pub(crate) const RETENTION: bool = !cfg!(all(target_arch = "wasm32", feature = "wasm-runtime"));

impl SessionConfig {
    /// The same settings with a retention: after every step the session forgets every turn
    /// older than the `folded` turns before the oldest turn the window still holds verbatim
    /// (and older than the oldest turn the policy may read again,
    /// [`CompactionPolicy::reads_back_to`](crate::CompactionPolicy::reads_back_to)): its text,
    /// its summary and its [`Step`](crate::Step). What the session holds of its past, and
    /// what it saves, then follows the window rather than the transcript: under
    /// [`HotWarmCold`](crate::HotWarmCold), whose window stays near the budget, it stays flat
    /// however long the session runs (`make bench`, `benches/memory.rs`).
    ///
    /// What the model is sent does not change: every window, step, summary, message and loss report
    /// is the one the session would give without a retention (a property test checks it under every
    /// policy). What changes is what the session keeps of old turns:
    /// [`Session::script`](crate::Session::script) and [`Session::log`](crate::Session::log) start
    /// at turn [`Script::forgotten`](crate::Script::forgotten)` + 1`,
    /// [`Session::state`](crate::Session::state)'s transcript and dropped turns list only the turns
    /// held, and a save ([`Session::save`](crate::Session::save)) holds the window and the policy's
    /// memory in place of the turns it can no longer replay.
    ///
    /// A forgotten turn cannot be played again: [`Session::reset`](crate::Session::reset) (and so
    /// stepping back with [`Session::go_to`](crate::Session::go_to), or giving a session that
    /// forgot turns a token counter or a hard budget, which replay it) empties a session that
    /// forgot turns.
    ///
    /// ```
    /// use agent_memory_widgets::{HotWarmCold, Session, SessionConfig, Turn};
    ///
    /// # fn main() -> Result<(), agent_memory_widgets::Error> {
    /// let config = SessionConfig::builder().budget(40).hot_n(2).retention(3).build()?;
    /// assert_eq!(config.retention(), Some(3));
    /// let mut bounded = Session::live(config, Box::new(HotWarmCold::default()));
    /// let mut whole = Session::live(SessionConfig::builder().budget(40).hot_n(2).build()?,
    ///                               Box::new(HotWarmCold::default()));
    /// for i in 0..100 {
    ///     let turn = Turn::user(&format!("Order ORD-{i} has not arrived; where is it now?"))?;
    ///     assert_eq!(bounded.push(turn.clone())?, whole.push(turn)?);
    /// }
    /// // The same window and messages, from a session that holds 5 turns of 100.
    /// assert_eq!(bounded.messages(), whole.messages());
    /// assert_eq!(bounded.window(), whole.window());
    /// assert_eq!((bounded.turn_count(), bounded.script().forgotten()), (100, 95));
    /// assert_eq!((bounded.script().turns().len(), bounded.log().len()), (5, 5));
    /// # Ok(())
    /// # }
    /// ```
    pub fn with_retention(self, folded: u32) -> SessionConfig {
        #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
        return SessionConfig {
            retention: Some(folded),
            ..self
        };
        // The project's own wasm builds have no retention (`RETENTION`).
        #[cfg(all(target_arch = "wasm32", feature = "wasm-runtime"))]
        {
            let _ = folded;
            self
        }
    }

    /// How many folded turns a session keeps before the window's oldest verbatim turn, when it
    /// has a retention ([`SessionConfig::with_retention`]); `None` keeps every turn.
    pub fn retention(&self) -> Option<u32> {
        #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
        return self.retention;
        #[cfg(all(target_arch = "wasm32", feature = "wasm-runtime"))]
        None
    }
}

impl SessionConfigBuilder {
    /// Keep at most `folded` folded turns before the window's oldest verbatim turn
    /// ([`SessionConfig::with_retention`]).
    pub fn retention(self, folded: u32) -> SessionConfigBuilder {
        SessionConfigBuilder {
            retention: Some(folded),
            ..self
        }
    }
}
