//! A step's title must not give its prediction's answer away (docs/writing-lessons.md §6).
//!
//! The learner reads the title before answering, so a title such as "The shared array feeds
//! another CPU" over the question "where does u come from?" hands over the right choice ("From
//! the shared array…"). The test is lexical, and deliberately plain: the words of the title that
//! the question does not already say are compared with each choice; a title that shares more of
//! them with the right choice than with every wrong one is refused. Words are compared by a
//! crude stem (a plural, `-ed` or `-ing` dropped, then the first six letters), short words and
//! function words (and the number words "one", "two", which titles use to count steps) are left
//! out. It catches a title that names the answer; a title that paraphrases it is the second
//! reader's job.

use crate::format::Predict;
use std::collections::BTreeSet;

/// Words that carry no answer: articles, prepositions, auxiliaries, and the counting words.
const STOP: &[&str] = &[
    "the", "and", "for", "with", "from", "are", "was", "its", "that", "this", "then", "than",
    "but", "not", "what", "which", "why", "how", "does", "did", "one", "two", "into", "onto",
];

fn stem(word: &str) -> String {
    let mut w = word;
    for suffix in ["ing", "es", "ed", "s"] {
        if let Some(rest) = w.strip_suffix(suffix) {
            if rest.chars().count() >= 3 {
                w = rest;
                break;
            }
        }
    }
    w.chars().take(6).collect()
}

/// The words of `text` worth comparing, lowercased: identifiers and numbers (`p0`, `3`,
/// `cmpxchg_double`) and words of three letters or more, without the function words.
fn comparable(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty() && !STOP.contains(w))
        .filter(|w| w.chars().count() >= 3 || w.chars().any(|c| c.is_ascii_digit()))
        .map(str::to_string)
        .collect()
}

/// The stems of `text`'s comparable words.
fn words(text: &str) -> BTreeSet<String> {
    comparable(text).iter().map(|w| stem(w)).collect()
}

/// The words of `title` that it shares with the right choice and with no wrong one, when it
/// shares more with the right choice than with each wrong one; `None` when the title is fair.
pub fn gives_away(title: &str, p: &Predict) -> Option<Vec<String>> {
    let right = p.answer.choice?;
    let asked = words(&p.question);
    let own: BTreeSet<String> = words(title).difference(&asked).cloned().collect();
    let shared = |c: &str| -> BTreeSet<String> { own.intersection(&words(c)).cloned().collect() };
    let with_right = shared(p.choices.get(right)?);
    let wrong: Vec<BTreeSet<String>> = p
        .choices
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != right)
        .map(|(_, c)| shared(c))
        .collect();
    if with_right.len() <= wrong.iter().map(BTreeSet::len).max().unwrap_or(0) {
        return None;
    }
    let in_wrong: BTreeSet<String> = wrong.into_iter().flatten().collect();
    let telling: BTreeSet<String> = with_right.difference(&in_wrong).cloned().collect();
    // Name them as the title writes them, not by their stems.
    let named: BTreeSet<String> = comparable(title)
        .into_iter()
        .filter(|w| telling.contains(&stem(w)))
        .collect();
    Some(named.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn predict(question: &str, choices: &[&str], right: usize) -> Predict {
        let yaml = format!(
            "question: {question:?}\nchoices: {choices:?}\nanswer: {{choice: {right}, vars: {{u: p0}}}}\n"
        );
        serde_norway::from_str(&yaml).unwrap()
    }

    /// Lesson 12 before the titles were rewritten: the title named the right choice.
    #[test]
    fn a_title_that_names_the_answer_is_caught() {
        let p = predict(
            "U on CPU 1 allocates u with an empty array. Where does u come from?",
            &[
                "From the shared array: U takes both pointers CPU 0 flushed, and pops one",
                "From slab Q, which has 2 free objects",
                "From a new slab",
            ],
            0,
        );
        let got = gives_away("The shared array feeds another CPU", &p);
        assert_eq!(got, Some(vec!["shared".to_string()]));
        assert_eq!(gives_away("CPU 1 misses", &p), None);
    }

    /// A word the question already says, or one every choice says, gives nothing away.
    #[test]
    fn words_of_the_question_and_of_every_choice_are_fair() {
        let p = predict(
            "T's compare-and-swap expects (p1, 2). What happens?",
            &["It fails and T retries", "It succeeds and T returns p1"],
            1,
        );
        assert_eq!(gives_away("T's compare-and-swap", &p), None);
        assert_eq!(gives_away("T retries", &p), None, "the wrong choice's word");
        assert_eq!(
            gives_away("The compare-and-swap succeeds", &p),
            Some(vec!["succeeds".to_string()])
        );
    }
}
