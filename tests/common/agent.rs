//! The agent program of issue 52, as data: 2,000 turns of a support agent that calls tools,
//! with the model's own token counts, some Chinese and Japanese text and long JSON tool outputs.
//! Deterministic (a fixed xorshift generator), so that the benchmark and the test that read it
//! see the same turns.

use agent_memory_widgets::{Tokens, Turn};

/// A small xorshift generator: the same numbers on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    /// A number from `low` to `high`, both included.
    pub fn between(&mut self, low: usize, high: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        low + (self.0 % (high - low + 1) as u64) as usize
    }
}

/// About `tokens` tokens of text (4 characters a token, as [`Estimate`] counts), made of
/// `piece` repeated.
fn text_of(piece: &str, tokens: usize) -> String {
    let mut text = String::new();
    while text.len() < tokens * 4 {
        text.push_str(piece);
    }
    text
}

/// The turns of the agent program: per exchange, the user's question (one in five in Chinese
/// or Japanese), the assistant's tool call, the tool's JSON output (300 to 1,500 tokens) and the
/// assistant's answer; each with the model's token count.
pub fn agent_turns(count: usize) -> Vec<Turn> {
    let mut rng = Rng::new(52);
    let mut turns = Vec::with_capacity(count);
    let mut exchange = 0;
    while turns.len() < count {
        exchange += 1;
        let order = format!("ORD-{}", 1000 + exchange);
        let question = match rng.between(0, 4) {
            0 => text_of("我的订单退款什么时候到账？", rng.between(20, 60)),
            _ => text_of(
                &format!("Where is the refund for {order}, and when will it arrive? "),
                rng.between(20, 80),
            ),
        };
        let id = format!("call_{exchange}");
        let call = format!("lookup_order({{\"order\": \"{order}\"}})");
        let output = text_of(
            &format!("{{\"order\": \"{order}\", \"status\": \"refunded\", \"amount\": 180.00, \"events\": [1, 2, 3]}}, "),
            rng.between(300, 1500),
        );
        let answer = text_of(
            &format!("Your refund for {order} of $180.00 is on its way. "),
            rng.between(40, 200),
        );
        let exchange_turns = [
            Turn::user(&question),
            Turn::tool_call(&id, &call),
            Turn::tool(&id, &output),
            Turn::assistant(&answer),
        ];
        for turn in exchange_turns {
            let turn = turn.expect("a valid turn");
            let tokens = Tokens((turn.text().len() as u32).div_ceil(4));
            turns.push(turn.with_tokens(tokens));
        }
    }
    turns.truncate(count);
    turns
}
