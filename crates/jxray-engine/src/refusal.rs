//! Refusals by their shape: a short output with no JSON whose opening is a first-person
//! declining statement ("I can't share that.", "As an AI, I'm unable to …", "Lo siento,
//! pero no puedo …"), however it is worded. Only the opening is read: linear and bounded.

/// Longest output that can be a refusal; a longer one is an answer of some kind.
pub(crate) const SHORT: usize = 2000;
/// How much of the start is read for the declining statement.
const OPENING: usize = 400;
/// How many sentences of the opening may hold it (a courtesy may come first).
const SENTENCES: usize = 2;

/// Openings that soften a refusal, stripped before the statement is looked for.
const HEDGES: [&str; 34] = [
    "i'm sorry",
    "i am sorry",
    "i'm really sorry",
    "sorry",
    "i apologize",
    "i apologise",
    "my apologies",
    "apologies",
    "unfortunately",
    "regrettably",
    "i'm afraid",
    "i am afraid",
    "as an ai language model",
    "as an ai assistant",
    "as an ai model",
    "as an ai",
    "as a language model",
    "i'm just a language model",
    "i'm only a language model",
    "i'm an ai",
    "but",
    "however",
    "lo siento",
    "lamentablemente",
    "désolé",
    "désolée",
    "je suis désolé",
    "malheureusement",
    "es tut mir leid",
    "leider",
    "mi dispiace",
    "purtroppo",
    "desculpe",
    "infelizmente",
];

/// First-person subjects of an English declining statement.
const SUBJECTS: [&str; 2] = ["i ", "we "];

/// What follows the subject and declines whatever comes after it.
const DECLINES: [&str; 36] = [
    "am unable to",
    "'m unable to",
    "are unable to",
    "'re unable to",
    "am not able to",
    "'m not able to",
    "are not able to",
    "'re not able to",
    "am not going to",
    "'m not going to",
    "must decline",
    "have to decline",
    "'ll have to decline",
    "need to decline",
    "decline to",
    "refuse to",
    "must refuse",
    "am not comfortable",
    "'m not comfortable",
    "don't feel comfortable",
    "do not feel comfortable",
    "am not allowed",
    "'m not allowed",
    "am not permitted",
    "'m not permitted",
    "am not in a position",
    "'m not in a position",
    "'d rather not",
    "would rather not",
    "am not willing",
    "'m not willing",
    "won't be able to",
    "will not be able to",
    "can't and won't",
    "cannot and will not",
    "'m going to have to decline",
];

/// Negated modals that decline only with a verb of doing what was asked after them
/// ("I can't help", not "I can't believe").
const MODALS: [&str; 9] = [
    "can't",
    "cannot",
    "can not",
    "won't",
    "will not",
    "don't",
    "do not",
    "shouldn't",
    "should not",
];

/// Verbs of doing what was asked, after a negated modal.
const ASKED: [&str; 48] = [
    "help",
    "assist",
    "comply",
    "provide",
    "share",
    "do",
    "fulfill",
    "fulfil",
    "create",
    "generate",
    "write",
    "produce",
    "give",
    "answer",
    "support",
    "engage",
    "continue",
    "complete",
    "process",
    "offer",
    "discuss",
    "participate",
    "make",
    "tell",
    "reveal",
    "disclose",
    "access",
    "perform",
    "carry",
    "accommodate",
    "proceed",
    "respond",
    "reply",
    "recommend",
    "advise",
    "endorse",
    "be of",
    "change",
    "translate",
    "summarize",
    "summarise",
    "extract",
    "browse",
    "draft",
    "compose",
    "facilitate",
    "aid",
    "go along",
];

/// Declining statements in other languages, written as they open (lower case).
const ELSEWHERE: [&str; 39] = [
    "je ne peux pas",
    "je ne peux ",
    "je ne suis pas en mesure",
    "il m'est impossible",
    "je refuse",
    "no puedo",
    "no estoy en condiciones",
    "no me es posible",
    "no podré",
    "no voy a poder",
    "kann ich nicht",
    "ich bin nicht in der lage",
    "ich kann leider nicht",
    "ich kann nicht",
    "ich kann dir dabei nicht",
    "ich kann ihnen dabei nicht",
    "non posso",
    "non sono in grado",
    "non mi è possibile",
    "não posso",
    "não consigo",
    "não sou capaz",
    "não estou em condições",
    "dat kan ik niet",
    "ik kan je daar niet",
    "ik ben niet in staat",
    "nie mogę",
    "nie jestem w stanie",
    "не могу",
    "не в состоянии",
    "jag kan inte",
    "jeg kan ikke",
    "我无法",
    "我不能",
    "我没办法",
    "无法提供",
    "できません",
    "いたしかねます",
    "수 없습니다",
];

/// Declining statements whose negation comes later in the clause (German, Dutch): the
/// first part, then the second after it in the same sentence.
const SPLIT: [(&str, &str); 5] = [
    ("ich kann", " nicht"),
    ("ich darf", " nicht"),
    ("ich werde", " nicht"),
    ("ik kan", " niet"),
    ("ik mag", " niet"),
];

/// Whether the text reads as a refusal by its shape.
pub(crate) fn is_refusal(text: &str) -> bool {
    let text = text.trim();
    if text.is_empty() || text.len() > SHORT {
        return false;
    }
    let mut end = text.len().min(OPENING);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let opening = text[..end]
        .to_lowercase()
        .replace(['\u{2019}', '\u{2018}', '`'], "'");
    let refused = sentences(&opening)
        .take(SENTENCES)
        .any(|sentence| declines(strip_hedges(sentence)));
    refused
}

/// The sentences of an opening (cut at `.`, `!`, `?`, a full stop of CJK, or a line end).
fn sentences(opening: &str) -> impl Iterator<Item = &str> {
    opening
        .split(['.', '!', '?', '\n', '。', '！', '？'])
        .map(str::trim)
        .filter(|sentence| !sentence.is_empty())
}

/// The sentence without the courtesies and hedges it opens with.
fn strip_hedges(mut sentence: &str) -> &str {
    loop {
        let Some(hedge) = HEDGES
            .iter()
            .find(|hedge| starts_with_word(sentence, hedge))
        else {
            return sentence;
        };
        sentence =
            sentence[hedge.len()..].trim_start_matches([' ', ',', ';', ':', '—', '-', '、', '，']);
    }
}

/// Whether `text` starts with `word` as a whole word (or phrase).
fn starts_with_word(text: &str, word: &str) -> bool {
    text.starts_with(word)
        && text[word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric())
}

/// Whether the sentence is a first-person declining statement.
fn declines(sentence: &str) -> bool {
    ELSEWHERE.iter().any(|phrase| sentence.contains(phrase))
        || SPLIT.iter().any(|(first, then)| {
            sentence
                .find(first)
                .is_some_and(|at| sentence[at..].contains(then))
        })
        || [
            "that's not something i",
            "that is not something i",
            "this isn't something i",
            "this is not something i",
            "that isn't something i",
        ]
        .iter()
        .any(|phrase| sentence.contains(phrase))
        || first_person_at(sentence).any(|rest| {
            DECLINES.iter().any(|decline| rest.starts_with(decline))
                || MODALS.iter().any(|modal| {
                    rest.strip_prefix(modal)
                        .map(|after| after.trim_start())
                        .is_some_and(|after| {
                            let after = after.strip_prefix("really ").unwrap_or(after);
                            ASKED.iter().any(|verb| starts_with_word(after, verb))
                                && !after.contains("help but")
                        })
                })
        })
}

/// What follows each first-person subject of the sentence, its `'m`/`'ll` glued on
/// (`i'm unable` reads as `'m unable`).
fn first_person_at(sentence: &str) -> impl Iterator<Item = &str> {
    let bytes = sentence.as_bytes();
    (0..sentence.len()).filter_map(move |at| {
        let word_start = at == 0 || !bytes[at - 1].is_ascii_alphanumeric();
        if !word_start || !sentence.is_char_boundary(at) {
            return None;
        }
        let rest = &sentence[at..];
        if let Some(after) = rest
            .strip_prefix('i')
            .filter(|after| after.starts_with('\''))
        {
            return Some(after);
        }
        SUBJECTS
            .iter()
            .find_map(|subject| rest.strip_prefix(subject))
            .or_else(|| rest.strip_prefix("we'").map(|_| &rest[2..]))
    })
}

#[cfg(test)]
mod tests {
    use super::is_refusal;

    #[test]
    fn hedges_are_stripped_and_modals_need_a_verb_of_doing() {
        assert!(is_refusal("I'm sorry, but I can't assist with that."));
        assert!(is_refusal("As an AI, I'm unable to browse the web."));
        assert!(!is_refusal("I can't believe it is December already."));
        assert!(!is_refusal("I can't help but notice the invoice is late."));
        assert!(!is_refusal(&format!(
            "I can't help with that. {}",
            "x".repeat(3000)
        )));
    }
}
