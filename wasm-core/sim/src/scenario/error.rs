//! [`ScenarioError`]: every refusal of a scenario says where (a JSON path) and why.

use serde::Serialize;

/// A bad scenario: where (a JSON path such as `tasks[1].ops[0].var`) and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScenarioError {
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

impl ScenarioError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError {
            path: path.into(),
            message: message.into(),
        }
    }
}
