//! The lines printed at start for the user to paste: how each SDK is pointed at the proxy.

use std::net::SocketAddr;

use crate::Routes;

/// One line per route: an `export` for the SDKs that read the environment, the code to
/// write for those that take a base URL in code.
pub fn env_lines(addr: SocketAddr, routes: &Routes) -> Vec<String> {
    let base = format!("http://{addr}");
    routes
        .iter()
        .map(|route| {
            let url = format!("{base}/{}", route.name);
            match route.name.as_str() {
                "openai" => format!(
                    "export OPENAI_BASE_URL={url}    # openai SDKs; LiteLLM: api_base=\"{url}\""
                ),
                "anthropic" => format!("export ANTHROPIC_BASE_URL={url}"),
                "gemini" => format!(
                    "genai.Client(http_options=types.HttpOptions(base_url=\"{url}\"))    # google-genai"
                ),
                "ollama" => format!("export OLLAMA_HOST={url}"),
                _ => format!("{url}    # base URL for {route} (OpenAI-compatible clients: base_url / api_base)"),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Route;

    #[test]
    fn every_route_gets_a_line_to_paste() {
        let routes = Routes::with(vec![Route::parse("vllm=http://127.0.0.1:8000/v1").unwrap()]);
        let lines = env_lines("127.0.0.1:8788".parse().unwrap(), &routes);
        assert_eq!(
            lines[0].split("    ").next(),
            Some("export OPENAI_BASE_URL=http://127.0.0.1:8788/openai")
        );
        assert_eq!(
            lines[1],
            "export ANTHROPIC_BASE_URL=http://127.0.0.1:8788/anthropic"
        );
        assert!(lines[2].contains("base_url=\"http://127.0.0.1:8788/gemini\""));
        assert_eq!(lines[3], "export OLLAMA_HOST=http://127.0.0.1:8788/ollama");
        assert!(lines[4].starts_with("http://127.0.0.1:8788/vllm "));
    }
}
