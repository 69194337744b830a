//! The turns a session is made of, and the refund-desk script both widgets tell.

use crate::prelude::*;
use serde::Serialize;

use crate::compaction::tokens::{given_count, Counter};
use crate::error::Error;
use crate::limits::{check_len, check_text, TextBudget, MAX_TURNS};
use crate::names::named;
use crate::units::{Tokens, TurnNumber};

/// What a turn is, which decides what compaction does with it.
///
/// ```
/// use agent_memory_widgets::Kind;
///
/// # fn main() -> Result<(), agent_memory_widgets::Error> {
/// assert_eq!("tool".parse::<Kind>()?, Kind::Tool);
/// assert_eq!(Kind::Question.to_string(), "question");
/// assert_eq!(
///     "smalltalk".parse::<Kind>().unwrap_err().message(),
///     "unknown kind \"smalltalk\"; use chatter, decision, tool or question"
/// );
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Greetings, thanks and filler: dropped when folded, never summarised.
    Chatter,
    /// Something the agent decided or told the user.
    Decision,
    /// A tool's output.
    Tool,
    /// Something the user asked.
    Question,
}

named!(Kind, "kind", {
    Chatter => "chatter",
    Decision => "decision",
    Tool => "tool",
    Question => "question",
});

/// How a turn is sent to a chat model, apart from what it is (its [`Kind`]).
///
/// The importers give each turn of a chat array or a log its message's role. A turn given
/// without one, such as a plain line (`Dana: Hello`, which has no role of its own) or a script
/// turn that names none, gets [`Role::default_for`] its speaker and kind, once, when it is made
/// or validated. Every policy reads only [`Turn::role`], never a kind.
///
/// ```
/// use agent_memory_widgets::{Kind, Role};
///
/// # fn main() -> Result<(), agent_memory_widgets::Error> {
/// assert_eq!("assistant".parse::<Role>()?, Role::Assistant);
/// assert_eq!(Role::Tool.to_string(), "tool");
/// assert_eq!(Role::default_for("agent", Kind::Chatter), Role::Assistant);
/// assert_eq!(Role::default_for("Dana", Kind::Question), Role::User);
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// The user's message.
    User,
    /// The agent's message, a tool call among them.
    Assistant,
    /// A tool's result.
    Tool,
    /// A system message: instructions, or a summary the agent's framework put in.
    System,
}

named!(Role, "role", {
    User => "user",
    Assistant => "assistant",
    Tool => "tool",
    System => "system",
});

impl Role {
    /// The role of a turn given without one: a `tool` turn, or a turn spoken by `tool`, is a
    /// tool's; a `decision`, or a turn spoken by `agent`, the assistant's; any other turn (a
    /// question or chatter) the user's. Speakers are compared ignoring ASCII case.
    ///
    /// ```
    /// use agent_memory_widgets::{Kind, Role};
    ///
    /// assert_eq!(Role::default_for("Tool", Kind::Chatter), Role::Tool);
    /// assert_eq!(Role::default_for("Dana", Kind::Decision), Role::Assistant);
    /// // Only `agent` is the assistant's name here: give other speakers their role.
    /// assert_eq!(Role::default_for("assistant", Kind::Chatter), Role::User);
    /// ```
    pub fn default_for(speaker: &str, kind: Kind) -> Role {
        if kind == Kind::Tool || speaker.eq_ignore_ascii_case("tool") {
            Role::Tool
        } else if kind == Kind::Decision || speaker.eq_ignore_ascii_case("agent") {
            Role::Assistant
        } else {
            Role::User
        }
    }
}

/// One validated turn: of a script, or pushed into a live [`Session`](crate::Session).
///
/// Invariant: `speaker` and `text` have at least one word; `summary`, when `Some`, has at least
/// one word, and is `None` for [`Kind::Chatter`]. In a script every other turn has a summary;
/// a turn made with [`Turn::new`] gets one from the session's
/// [`Summarizer`](crate::Summarizer) when it is pushed.
///
/// # Example
///
/// ```
/// use agent_memory_widgets::{Kind, Role, Turn, TurnSpec};
///
/// # fn main() -> Result<(), agent_memory_widgets::Error> {
/// let turn = Turn::new("Dana", Kind::Question, "Can I get my $200.00 back?")?
///     .with_summary("Dana asks for a refund.")?;
/// assert_eq!(turn.summary(), Some("Dana asks for a refund."));
///
/// let spec = TurnSpec { speaker: Some("Dana".into()), kind: Some("chatter".into()),
///                       text: Some("Thanks!".into()), ..TurnSpec::default() };
/// assert_eq!(Turn::try_from(spec)?.tokens().0, 1);
///
/// // An assistant's tool call and its result share an id.
/// let call = Turn::tool_call("call_7", "lookup_order(\"ORD-3300\")")?;
/// let result = Turn::tool("call_7", "ORD-3300: $200.00, returned on day 41.")?;
/// assert_eq!((call.role(), result.role()), (Role::Assistant, Role::Tool));
/// assert_eq!(call.tool_call_id(), result.tool_call_id());
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug, Eq)]
pub struct Turn {
    speaker: String,
    kind: Kind,
    // The role as given; `None` for `Role::default_for(speaker, kind)`, which `role()` reads
    // then (speaker and kind never change). Two turns compare by `role()`.
    role: Option<Role>,
    // Invariant: when `Some`, has at least one word.
    tool_call_id: Option<String>,
    text: String,
    summary: Option<String>,
    // Whether `summary` was written by the first-sentence rule ([`Extractive`]) rather than given.
    summary_by_rule: bool,
    // The caller's count ([`Turn::with_tokens`]) when `own_tokens`; else the count of `text` by
    // the counter of the session that holds the turn (words until then).
    tokens: Tokens,
    own_tokens: bool,
}

impl Turn {
    /// A turn with no summary yet: a [`Session`](crate::Session)'s
    /// [`Summarizer`](crate::Summarizer) writes one when it is pushed (chatter never has one).
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidOption`](crate::ErrorKind) naming `speaker` or `text` when it has
    /// no word, and [`ErrorKind::OverLimit`](crate::ErrorKind) past
    /// [`MAX_TEXT_CHARS`](crate::limits::MAX_TEXT_CHARS).
    /// Its role is [`Role::default_for`] the speaker and kind; [`Turn::with_role`] gives
    /// another.
    pub fn new(speaker: &str, kind: Kind, text: &str) -> Result<Turn, Error> {
        let at = |field: &str| field.to_owned();
        Ok(Turn {
            speaker: required(&at, "speaker", Some(speaker.to_owned()))?,
            kind,
            role: None,
            tool_call_id: None,
            text: required(&at, "text", Some(text.to_owned()))?,
            summary: None,
            summary_by_rule: false,
            tokens: Tokens::of(text),
            own_tokens: false,
        })
    }

    /// The user's message: speaker `user`, role [`Role::User`], kind [`Kind::Question`].
    ///
    /// ```
    /// use agent_memory_widgets::{Kind, Role, Turn};
    ///
    /// # fn main() -> Result<(), agent_memory_widgets::Error> {
    /// let turn = Turn::user("Can I get my $200.00 back?")?;
    /// assert_eq!((turn.speaker(), turn.role(), turn.kind()), ("user", Role::User, Kind::Question));
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Turn::new`], for `text`.
    pub fn user(text: &str) -> Result<Turn, Error> {
        Turn::new("user", Kind::Question, text)
    }

    /// The assistant's message: speaker `assistant`, role [`Role::Assistant`], kind
    /// [`Kind::Decision`].
    ///
    /// # Errors
    ///
    /// As [`Turn::new`], for `text`.
    pub fn assistant(text: &str) -> Result<Turn, Error> {
        Turn::new("assistant", Kind::Decision, text)
    }

    /// The assistant's tool call `call_id`, `text` being the call as the model wrote it:
    /// speaker `assistant`, role [`Role::Assistant`], kind [`Kind::Decision`]. Its result is
    /// [`Turn::tool`] with the same id.
    ///
    /// # Errors
    ///
    /// As [`Turn::new`], for `text`, and as [`Turn::with_tool_call_id`], for `call_id`.
    pub fn tool_call(call_id: &str, text: &str) -> Result<Turn, Error> {
        Turn::assistant(text)?.with_tool_call_id(call_id)
    }

    /// The result of tool call `call_id`: speaker `tool`, role [`Role::Tool`], kind
    /// [`Kind::Tool`].
    ///
    /// # Errors
    ///
    /// As [`Turn::new`], for `text`, and as [`Turn::with_tool_call_id`], for `call_id`.
    pub fn tool(call_id: &str, text: &str) -> Result<Turn, Error> {
        Turn::new("tool", Kind::Tool, text)?.with_tool_call_id(call_id)
    }

    /// The same turn sent to the model as `role`.
    ///
    /// ```
    /// use agent_memory_widgets::{Kind, Role, Turn};
    ///
    /// # fn main() -> Result<(), agent_memory_widgets::Error> {
    /// let turn = Turn::new("assistant", Kind::Chatter, "Happy to help!")?;
    /// assert_eq!(turn.role(), Role::User); // the rule knows `agent`, not `assistant`
    /// assert_eq!(turn.with_role(Role::Assistant).role(), Role::Assistant);
    /// # Ok(())
    /// # }
    /// ```
    pub fn with_role(mut self, role: Role) -> Turn {
        self.role = Some(role);
        self
    }

    /// The same turn with the id that an assistant's tool call and its result share.
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidOption`](crate::ErrorKind) naming `toolCallId` when `id` has no
    /// word, and [`ErrorKind::OverLimit`](crate::ErrorKind) past
    /// [`MAX_TEXT_CHARS`](crate::limits::MAX_TEXT_CHARS).
    pub fn with_tool_call_id(mut self, id: &str) -> Result<Turn, Error> {
        let at = |field: &str| field.to_owned();
        self.tool_call_id = Some(required(&at, "toolCallId", Some(id.to_owned()))?);
        Ok(self)
    }

    /// The same turn with its token count given: from the API's `usage`, or your own
    /// tokenizer. It is taken as given: no session's [`TokenCounter`](crate::TokenCounter) ever
    /// counts this turn again.
    ///
    /// ```
    /// use agent_memory_widgets::{Kind, Tokens, Turn};
    ///
    /// # fn main() -> Result<(), agent_memory_widgets::Error> {
    /// let turn = Turn::new("agent", Kind::Decision, "Your refund is $180.00.")?.with_tokens(Tokens(9));
    /// assert_eq!((turn.tokens(), turn.has_own_tokens()), (Tokens(9), true));
    /// # Ok(())
    /// # }
    /// ```
    pub fn with_tokens(mut self, tokens: Tokens) -> Turn {
        self.tokens = tokens;
        self.own_tokens = true;
        self
    }

    /// The same turn with its one-line summary; chatter keeps none.
    ///
    /// # Errors
    ///
    /// As [`Turn::new`], for `summary`.
    pub fn with_summary(mut self, summary: &str) -> Result<Turn, Error> {
        let summary = required(&|f: &str| f.to_owned(), "summary", Some(summary.to_owned()))?;
        if self.kind != Kind::Chatter {
            self.summary = Some(summary);
        }
        Ok(self)
    }

    /// Who spoke: `Dana`, `agent` or `tool` in the refund-desk script.
    pub fn speaker(&self) -> &str {
        &self.speaker
    }
    /// What kind of turn this is.
    pub fn kind(&self) -> Kind {
        self.kind
    }
    /// How the turn is sent to a chat model: as given, or [`Role::default_for`] its speaker
    /// and kind.
    pub fn role(&self) -> Role {
        match self.role {
            Some(role) => role,
            None => Role::default_for(&self.speaker, self.kind),
        }
    }
    /// The id that an assistant's tool call and its result share, if the turn is either.
    pub fn tool_call_id(&self) -> Option<&str> {
        self.tool_call_id.as_deref()
    }
    /// The verbatim text.
    pub fn text(&self) -> &str {
        &self.text
    }
    /// The one-line summary, `None` for chatter (and for a turn not yet pushed that has none).
    pub fn summary(&self) -> Option<&str> {
        self.summary.as_deref()
    }
    /// The verbatim text's token count: the one given with [`Turn::with_tokens`], or else the
    /// count of the session's [`TokenCounter`](crate::TokenCounter) once the turn is in a
    /// session (its words before).
    pub fn tokens(&self) -> Tokens {
        self.tokens
    }

    /// Whether the token count was given with the turn ([`Turn::with_tokens`], a spec's
    /// `tokens`), rather than counted.
    pub fn has_own_tokens(&self) -> bool {
        self.own_tokens
    }

    /// The same turn counted by `counter`, unless its count was given.
    pub(crate) fn counted_by(mut self, counter: &Counter) -> Turn {
        if !self.own_tokens {
            self.tokens = counter.count(&self.text);
        }
        self
    }

    /// The role as given ([`Turn::with_role`], a spec's `role`), if it was.
    pub(crate) fn given_role(&self) -> Option<Role> {
        self.role
    }

    /// Whether the summary was written by the first-sentence rule of
    /// [`Extractive`](crate::Extractive), for a turn given without one in options (see
    /// [`Script::within_limits`]), rather than given with the turn.
    pub fn summary_by_rule(&self) -> bool {
        self.summary_by_rule
    }

    /// The turn as options write it: a summary made by the rule, and the role when none was
    /// given, are left out, so reading the spec back makes the same turn.
    pub fn to_spec(&self) -> TurnSpec {
        TurnSpec {
            speaker: Some(self.speaker.clone()),
            kind: Some(self.kind.name().to_owned()),
            role: self.given_role().map(|role| role.name().to_owned()),
            tool_call_id: self.tool_call_id.clone(),
            text: Some(self.text.clone()),
            summary: match self.summary_by_rule {
                true => None,
                false => self.summary.clone(),
            },
            tokens: self.own_tokens.then_some(f64::from(self.tokens.0)),
        }
    }
}

/// A turn as a caller writes it (in JSON, or from JS), before validation.
///
/// ```json
/// { "speaker": "Dana", "kind": "question", "text": "Can I get my $200.00 back?",
///   "summary": "Dana asks for a refund.", "tokens": 9 }
/// { "speaker": "assistant", "kind": "decision", "role": "assistant", "toolCallId": "call_7",
///   "text": "lookup_order(\"ORD-3300\")" }
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "deserialize", derive(serde::Deserialize))]
#[serde(deny_unknown_fields)]
pub struct TurnSpec {
    /// Who spoke; required.
    pub speaker: Option<String>,
    /// `chatter`, `decision`, `tool` or `question`; required.
    pub kind: Option<String>,
    /// The verbatim text; at least one word.
    pub text: Option<String>,
    /// The one-line summary; required unless the kind is `chatter`, where it is ignored.
    #[serde(default)]
    pub summary: Option<String>,
    /// The text's token count as the caller knows it ([`Turn::with_tokens`]): a whole number
    /// from 0 to 4294967295. Absent, the session counts the text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<f64>,
    /// `user`, `assistant`, `tool` or `system`: how the turn is sent to a chat model. Absent,
    /// it is [`Role::default_for`] the speaker and kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// The id that an assistant's tool call and its result share (JSON `toolCallId`); at
    /// least one word when given.
    #[serde(
        default,
        rename = "toolCallId",
        skip_serializing_if = "Option::is_none"
    )]
    pub tool_call_id: Option<String>,
}

impl TryFrom<TurnSpec> for Turn {
    type Error = Error;

    /// Validates one turn as [`Script::new`] does, with the field names bare (`kind`), except
    /// that the summary may be left out for the session's summarizer to write.
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidOption`](crate::ErrorKind) naming the field (`kind`, `text`, ...)
    /// that is missing, empty or unknown, and [`ErrorKind::OverLimit`](crate::ErrorKind) past
    /// [`MAX_TEXT_CHARS`](crate::limits::MAX_TEXT_CHARS).
    fn try_from(spec: TurnSpec) -> Result<Turn, Error> {
        validate(&|field: &str| field.to_owned(), spec, false)
    }
}

/// A script's turns: at real size (`large-sessions`) shared by its clones, a playground's seven
/// sessions and their spares, until one changes them; else its own (the smaller code).
#[cfg(feature = "large-sessions")]
type Turns = alloc::sync::Arc<Vec<Turn>>;
#[cfg(not(feature = "large-sessions"))]
type Turns = Vec<Turn>;

/// A validated list of turns, non-empty unless it is a live session's transcript.
///
/// # Example
///
/// ```
/// use agent_memory_widgets::{Script, TurnSpec};
///
/// let turn = |kind: &str, text: &str, summary: Option<&str>| TurnSpec {
///     speaker: Some("Dana".into()),
///     kind: Some(kind.into()),
///     text: Some(text.into()),
///     summary: summary.map(Into::into),
///     ..TurnSpec::default()
/// };
/// let script = Script::new(vec![
///     turn("chatter", "Hello!", None),
///     turn("question", "Where is my order?", Some("Dana asks where her order is.")),
/// ])
/// .unwrap();
/// assert_eq!(script.len(), 2);
///
/// let err = Script::new(vec![turn("smalltalk", "Hi", None)]).unwrap_err();
/// assert_eq!(
///     err.message(),
///     "script[0].kind (turn 1): unknown kind \"smalltalk\"; use chatter, decision, tool or question"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Script {
    // Invariant: not empty (except a live session's, which starts empty), and at most u32::MAX
    // turns so that turn numbers fit a u32; `turns[0]` is turn `forgotten + 1`. Shared by the
    // clones of a script (a playground's seven sessions, and their spares) until one changes.
    turns: Turns,
    // The first turns, which a session with a retention forgot (`SessionConfig::with_retention`):
    // 0 unless one did.
    #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
    forgotten: u32,
}

impl Script {
    /// Validates `specs` into a script. Errors name the turn's index and the field.
    ///
    /// # Errors
    ///
    /// An [`ErrorKind::InvalidOption`](crate::ErrorKind) naming the turn and field: an empty
    /// script, a missing or empty text, an unknown kind, or a missing summary.
    pub fn new(specs: Vec<TurnSpec>) -> Result<Script, Error> {
        Script::validated(specs, true)
    }

    /// [`Script::new`]; without `need_summary`, the rule writes the missing summaries.
    fn validated(specs: Vec<TurnSpec>, need_summary: bool) -> Result<Script, Error> {
        if specs.is_empty() {
            return Err(Error::invalid(
                "script",
                "script must have at least 1 turn, got 0",
            ));
        }
        if u32::try_from(specs.len()).is_err() {
            return Err(Error::invalid(
                "script",
                "script must have at most 4294967295 turns",
            ));
        }
        let mut turns = Vec::with_capacity(specs.len());
        for (index, spec) in specs.into_iter().enumerate() {
            let at = |field: &str| text!("script[", index, "].", field, " (turn ", index + 1, ")");
            let mut turn = validate(&at, spec, need_summary)?;
            if turn.summary.is_none() && turn.kind != Kind::Chatter {
                turn.summary = Some(extract(&turn.text));
                turn.summary_by_rule = true;
            }
            turns.push(turn);
        }
        Ok(Script {
            turns: Turns::from(turns),
            #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
            forgotten: 0,
        })
    }

    /// Validates `specs` from an untrusted source, such as a page's options, within the limits
    /// of [`limits`](crate::limits): at most [`MAX_TURNS`] turns,
    /// [`MAX_SCRIPT_TEXT_CHARS`](crate::limits::MAX_SCRIPT_TEXT_CHARS) characters in all, and
    /// the page's [`MAX_PAGE_TEXT_CHARS`](crate::limits::MAX_PAGE_TEXT_CHARS) in each text. The
    /// library's own [`Script::new`] takes any length, for long native sessions, and texts of up
    /// to [`MAX_TEXT_CHARS`](crate::limits::MAX_TEXT_CHARS).
    ///
    /// A turn that is not chatter and comes without a summary gets one from the first-sentence
    /// rule of [`Extractive`](crate::Extractive), and says so
    /// ([`Turn::summary_by_rule`]): a typed or imported turn needs no summary.
    ///
    /// ```
    /// use agent_memory_widgets::{Script, TurnSpec};
    ///
    /// let spec = TurnSpec { speaker: Some("agent".into()), kind: Some("decision".into()),
    ///                       text: Some("Refund approved. It takes five days.".into()),
    ///                       ..TurnSpec::default() };
    /// let script = Script::within_limits(vec![spec]).unwrap();
    /// assert_eq!(script.turns()[0].summary(), Some("Refund approved."));
    /// assert!(script.turns()[0].summary_by_rule());
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Script::new`] but for missing summaries, and when a limit is passed.
    pub fn within_limits(specs: Vec<TurnSpec>) -> Result<Script, Error> {
        check_len("script", specs.len(), MAX_TURNS, "MAX_TURNS")?;
        let mut budget = TextBudget::script();
        for (index, spec) in specs.iter().enumerate() {
            for (field, text) in [
                ("speaker", &spec.speaker),
                ("text", &spec.text),
                ("summary", &spec.summary),
                ("toolCallId", &spec.tool_call_id),
            ] {
                if let Some(text) = text {
                    budget.take(
                        &text!("script[", index, "].", field, " (turn ", index + 1, ")"),
                        text,
                    )?;
                }
            }
        }
        Script::validated(specs, false)
    }

    /// The ten-turn refund-desk session of the seed design. With `BUDGET` 40 and `HOT_N` 2 it
    /// crosses the budget on turns 4, 6, 8, 9 and 10.
    pub fn refund_desk() -> Script {
        let turns: Vec<Turn> = REFUND_DESK
            .iter()
            .map(|&(speaker, kind, text, summary)| Turn {
                speaker: speaker.into(),
                kind,
                role: None,
                tool_call_id: None,
                text: text.into(),
                summary: summary.map(Into::into),
                summary_by_rule: false,
                tokens: Tokens::of(text),
                own_tokens: false,
            })
            .collect();
        Script {
            turns: Turns::from(turns),
            #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
            forgotten: 0,
        }
    }

    /// The number of turns: the number of the last one, those forgotten
    /// ([`Script::forgotten`]) included.
    pub fn len(&self) -> usize {
        self.forgotten() as usize + self.turns.len()
    }

    /// How many of the first turns a session with a retention
    /// ([`SessionConfig::with_retention`](crate::SessionConfig::with_retention)) forgot: 0 unless
    /// one did. [`Script::turns`] starts at turn `forgotten + 1`.
    pub fn forgotten(&self) -> u32 {
        // 0 in the project's own wasm builds, which never forget (and so leave out the sums).
        #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
        return self.forgotten;
        #[cfg(all(target_arch = "wasm32", feature = "wasm-runtime"))]
        0
    }

    /// Whether there are no turns: only a live session's transcript, before its first push.
    pub fn is_empty(&self) -> bool {
        self.turns.is_empty()
    }

    /// Turn number `number`, counting from 1 as the widget does.
    pub fn turn(&self, number: TurnNumber) -> Option<&Turn> {
        let index = number.index()?.checked_sub(self.forgotten() as usize)?;
        self.turns.get(index)
    }

    /// All turns in order, from turn [`forgotten`](Script::forgotten)` + 1`: all of them unless
    /// a session with a retention forgot the first.
    pub fn turns(&self) -> &[Turn] {
        self.turns.as_slice()
    }

    /// Every turn as options write it ([`Turn::to_spec`]): `Script::within_limits` of these
    /// makes this script again.
    pub fn to_specs(&self) -> Vec<TurnSpec> {
        self.turns.iter().map(Turn::to_spec).collect()
    }

    /// [`Script::to_specs`] borrowed: serialises as they do, without copying a text.
    #[cfg(any(
        test,
        all(
            target_arch = "wasm32",
            feature = "element-compaction",
            feature = "with-config"
        )
    ))]
    pub(crate) fn spec_refs(&self) -> Vec<SpecRef<'_>> {
        let mut specs = Vec::with_capacity(self.turns.len());
        for turn in self.turns.iter() {
            specs.push(SpecRef {
                speaker: &turn.speaker,
                kind: turn.kind,
                text: &turn.text,
                summary: match turn.summary_by_rule {
                    true => None,
                    false => turn.summary.as_deref(),
                },
                tokens: turn.own_tokens.then_some(f64::from(turn.tokens.0)),
                role: turn.role,
                tool_call_id: turn.tool_call_id.as_deref(),
            });
        }
        specs
    }
}

impl PartialEq for Turn {
    /// Field by field, the roles by [`Turn::role`]: a role given as the one
    /// [`Role::default_for`] gives is the same as none.
    fn eq(&self, other: &Turn) -> bool {
        self.speaker == other.speaker
            && self.kind == other.kind
            && self.role() == other.role()
            && self.tool_call_id == other.tool_call_id
            && self.text == other.text
            && self.summary == other.summary
            && self.summary_by_rule == other.summary_by_rule
            && self.tokens == other.tokens
            && self.own_tokens == other.own_tokens
    }
}

/// A [`TurnSpec`] borrowed from its [`Turn`] ([`Script::spec_refs`]); the same fields serialise.
#[derive(Serialize)]
#[cfg(any(
    test,
    all(
        target_arch = "wasm32",
        feature = "element-compaction",
        feature = "with-config"
    )
))]
pub(crate) struct SpecRef<'a> {
    speaker: &'a str,
    kind: Kind,
    text: &'a str,
    summary: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tokens: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    role: Option<Role>,
    #[serde(rename = "toolCallId", skip_serializing_if = "Option::is_none")]
    tool_call_id: Option<&'a str>,
}

impl Script {
    /// The turns, to change: a copy of their own if they are shared.
    fn turns_mut(&mut self) -> &mut Vec<Turn> {
        #[cfg(feature = "large-sessions")]
        return alloc::sync::Arc::make_mut(&mut self.turns);
        #[cfg(not(feature = "large-sessions"))]
        &mut self.turns
    }

    /// A live session's transcript, before its first turn.
    pub(crate) fn live() -> Script {
        Script {
            turns: Turns::default(),
            #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
            forgotten: 0,
        }
    }

    /// Every turn whose count was not given, counted again by `counter`.
    pub(crate) fn count_with(&mut self, counter: &Counter) {
        for turn in self.turns_mut() {
            if !turn.own_tokens {
                turn.tokens = counter.count(&turn.text);
            }
        }
    }

    /// Keeps the first `len` turns and appends `turn`; returns the turns it replaced, for
    /// [`Script::restore_from`].
    pub(crate) fn replace_from(&mut self, len: usize, turn: Turn) -> Vec<Turn> {
        let len = len.saturating_sub(self.forgotten() as usize);
        let turns = self.turns_mut();
        let tail = if len < turns.len() {
            turns.split_off(len)
        } else {
            Vec::new()
        };
        turns.push(turn);
        tail
    }

    /// A script of `turns` as a saved session held them (checked one by one), any length.
    pub(crate) fn from_turns(turns: Vec<Turn>) -> Script {
        Script {
            turns: Turns::from(turns),
            #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
            forgotten: 0,
        }
    }

    /// A script of `turns` that follow `forgotten` turns a session forgot, as a saved session
    /// with a retention held them.
    pub(crate) fn after(forgotten: u32, turns: Vec<Turn>) -> Script {
        #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
        return Script {
            turns: Turns::from(turns),
            forgotten,
        };
        // The project's own wasm builds never forget (`RETENTION`).
        #[cfg(all(target_arch = "wasm32", feature = "wasm-runtime"))]
        {
            let _ = forgotten;
            Script {
                turns: Turns::from(turns),
            }
        }
    }

    /// Forgets the turns before turn `first` that it still holds, and returns how many of them
    /// waited for a summary.
    pub(crate) fn forget_before(&mut self, first: TurnNumber) -> usize {
        let count = (first.0.saturating_sub(1).saturating_sub(self.forgotten()) as usize)
            .min(self.turns.len());
        if count == 0 {
            return 0;
        }
        let waiting = self
            .turns_mut()
            .drain(..count)
            .filter(|turn| turn.kind() != Kind::Chatter && turn.summary().is_none());
        let waiting = waiting.count();
        #[cfg(not(all(target_arch = "wasm32", feature = "wasm-runtime")))]
        {
            self.forgotten += count as u32;
        }
        waiting
    }

    /// Undoes [`Script::replace_from`]: keeps the first `len` turns and appends `tail`.
    pub(crate) fn restore_from(&mut self, len: usize, tail: Vec<Turn>) {
        let len = len.saturating_sub(self.forgotten() as usize);
        let turns = self.turns_mut();
        turns.truncate(len);
        turns.extend(tail);
    }

    /// Sets the summary of turn `number` (a session's summarizer wrote it, or a failed push
    /// takes it back). `false` when there is no such turn.
    pub(crate) fn set_summary(&mut self, number: TurnNumber, summary: Option<String>) -> bool {
        let index = number
            .index()
            .and_then(|i| i.checked_sub(self.forgotten() as usize));
        match index.and_then(|i| self.turns_mut().get_mut(i)) {
            Some(turn) => {
                turn.summary = summary;
                true
            }
            None => false,
        }
    }
}

impl Turn {
    /// A turn as a saved session holds it, checked as [`Turn::new`] and
    /// [`Turn::with_summary`] check theirs: its token count, whether the caller gave it, and
    /// the rule flag are taken as saved. `at(field)` names a field in the error.
    pub(crate) fn restored(
        at: &dyn Fn(&str) -> String,
        spec: TurnSpec,
        summary_by_rule: bool,
        tokens: Tokens,
        own_tokens: bool,
    ) -> Result<Turn, Error> {
        let mut turn = validate(at, spec, false)?;
        turn.summary_by_rule = summary_by_rule && turn.summary.is_some();
        turn.tokens = tokens;
        turn.own_tokens = own_tokens;
        Ok(turn)
    }
}

impl Default for Script {
    fn default() -> Script {
        Script::refund_desk()
    }
}

/// `value` if it has a word and is within [`MAX_TEXT_CHARS`](crate::limits::MAX_TEXT_CHARS);
/// `at(field)` names it in the error.
fn required(
    at: &dyn Fn(&str) -> String,
    field: &str,
    value: Option<String>,
) -> Result<String, Error> {
    match value {
        Some(value) if !value.trim().is_empty() => {
            check_text(&at(field), &value)?;
            Ok(value)
        }
        _ => Err(Error::invalid(
            &at(field),
            text!(at(field), ": must be a non-empty text"),
        )),
    }
}

fn validate(
    at: &dyn Fn(&str) -> String,
    spec: TurnSpec,
    need_summary: bool,
) -> Result<Turn, Error> {
    let speaker = required(at, "speaker", spec.speaker)?;
    let kind_name = required(at, "kind", spec.kind)?;
    let kind = kind_name
        .parse::<Kind>()
        .map_err(|err| Error::invalid(&at("kind"), text!(at("kind"), ": ", err.message())))?;
    let role =
        match spec.role {
            None => None,
            Some(name) => Some(name.parse::<Role>().map_err(|err| {
                Error::invalid(&at("role"), text!(at("role"), ": ", err.message()))
            })?),
        };
    let tool_call_id = match spec.tool_call_id {
        None => None,
        id => Some(required(at, "toolCallId", id)?),
    };
    let text = required(at, "text", spec.text)?;
    let summary = match kind {
        Kind::Chatter => None,
        _ if !need_summary && spec.summary.is_none() => None,
        _ => Some(required(at, "summary", spec.summary).map_err(|_| {
            Error::invalid(
                &at("summary"),
                text!(
                    at("summary"),
                    ": a ",
                    kind.name(),
                    " turn needs a one-line summary (only chatter goes without)"
                ),
            )
        })?),
    };
    let (tokens, own_tokens) = match spec.tokens {
        Some(count) => (given_count(&at("tokens"), &at("tokens"), count)?, true),
        None => (Tokens::of(&text), false),
    };
    Ok(Turn {
        speaker,
        kind,
        role,
        tool_call_id,
        text,
        summary,
        summary_by_rule: false,
        tokens,
        own_tokens,
    })
}

/// Speaker, kind, verbatim text and summary of each refund-desk turn. The word counts are chosen
/// so that the seed's crossings fall on turns 4, 6, 8, 9 and 10; the tests pin them.
const REFUND_DESK: [(&str, Kind, &str, Option<&str>); 10] = [
    (
        "Dana",
        Kind::Chatter,
        "Hi there, hope you're having a good day!",
        None,
    ),
    (
        "Dana",
        Kind::Question,
        "I returned order ORD-3300. Can I get my $200.00 back?",
        Some("Dana wants a refund for ORD-3300 ($200.00)."),
    ),
    (
        "tool",
        Kind::Tool,
        "lookup ORD-3300: $200.00, returned on day 41, outside the 30-day window.",
        Some("ORD-3300 came back after the 30-day window."),
    ),
    (
        "agent",
        Kind::Decision,
        "Late returns carry a 10% restocking fee, so your refund is $180.00.",
        Some("10% restocking fee, refund $180.00."),
    ),
    ("Dana", Kind::Chatter, "Okay, fair enough. Thanks!", None),
    (
        "tool",
        Kind::Tool,
        "refund ORD-3300: $180.00 approved, reference RF-7781, five business days.",
        Some("refund $180.00 approved as RF-7781."),
    ),
    (
        "agent",
        Kind::Decision,
        "Done: $180.00 is on its way.",
        Some("told Dana the refund is on its way."),
    ),
    (
        "Dana",
        Kind::Question,
        "Also, my Globex earbuds stopped charging. Still under warranty?",
        Some("Dana asks about the Globex earbuds warranty."),
    ),
    (
        "tool",
        Kind::Tool,
        "warranty Globex earbuds: bought 8 months ago, 12-month cover, charging faults included.",
        Some("Globex earbuds covered by a 12-month warranty."),
    ),
    (
        "agent",
        Kind::Decision,
        "Yes, Dana: your Globex earbuds are covered, so I've opened a free replacement.",
        Some("free Globex replacement opened."),
    ),
];

/// The most words an [`Extractive`](crate::Extractive) summary keeps.
pub const EXTRACT_WORDS: usize = 12;

/// The first sentence of `text` (up to a `.`, `!` or `?` that ends a word), at most
/// [`EXTRACT_WORDS`] words, `…` appended where it was cut.
pub(crate) fn extract(text: &str) -> String {
    let mut out = String::new();
    for (words, word) in crate::text::words(text).enumerate() {
        if words == EXTRACT_WORDS {
            out.push('…');
            return out;
        }
        if words > 0 {
            out.push(' ');
        }
        out.push_str(word);
        // An ASCII last byte is an ASCII last character.
        if matches!(word.bytes().last(), Some(b'.' | b'!' | b'?')) {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_refs_serialise_as_the_specs_do() {
        let mut script = Script::refund_desk();
        let call = Turn::tool_call("call_1", "lookup(ORD-3300)")
            .and_then(|turn| turn.with_summary("looked ORD-3300 up"))
            .map(|turn| turn.with_tokens(Tokens(4)));
        let chatter =
            Turn::new("assistant", Kind::Chatter, "Sure!").map(|t| t.with_role(Role::Assistant));
        script.turns_mut().extend([call.unwrap(), chatter.unwrap()]);
        script.turns_mut()[1].summary_by_rule = true;
        assert_eq!(
            serde_json::to_value(script.spec_refs()).unwrap(),
            serde_json::to_value(script.to_specs()).unwrap()
        );
    }

    #[test]
    fn an_extract_is_the_first_sentence_cut_at_twelve_words() {
        let check = |text: &str, expect: &str| assert_eq!(extract(text), expect, "{text}");
        check("One. Two.", "One.");
        check("No stop at all", "No stop at all");
        check("a b c d e f g h i j k l m n.", "a b c d e f g h i j k l…");
        check("a b c d e f g h i j k l.", "a b c d e f g h i j k l.");
        check(
            "ORD-3300 costs $200.00, returned late!  Then more.",
            "ORD-3300 costs $200.00, returned late!",
        );
    }
}
