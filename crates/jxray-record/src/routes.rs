//! Routes: `/NAME/REST` on the proxy stands for `URL/REST` upstream.
//!
//! The default routes are the public APIs (OpenAI, Anthropic, Gemini) and a local Ollama;
//! `--upstream NAME=URL` adds a route or replaces one of the same name.

use std::fmt;

use http::uri::{Authority, Scheme, Uri};

use crate::RecordError;

/// The routes every `jxray record` starts with.
pub const DEFAULT_ROUTES: [(&str, &str); 4] = [
    ("openai", "https://api.openai.com/v1"),
    ("anthropic", "https://api.anthropic.com"),
    ("gemini", "https://generativelanguage.googleapis.com"),
    ("ollama", "http://127.0.0.1:11434"),
];

/// One upstream: its name (the first path segment on the proxy) and where it leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    pub name: String,
    scheme: Scheme,
    authority: Authority,
    /// The upstream's base path without a trailing slash (`/v1`, or empty).
    base_path: String,
}

impl Route {
    /// A route from its name and upstream URL (`http` or `https`, no query).
    pub fn new(name: &str, url: &str) -> Result<Route, RecordError> {
        let bad = |why: &str| RecordError::BadUpstream(format!("{name}={url}: {why}"));
        let valid_name = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.');
        if !valid_name {
            return Err(bad("the name must be letters, digits, '-', '_' or '.'"));
        }
        let uri: Uri = url.parse().map_err(|_| bad("not a URL"))?;
        let scheme = uri
            .scheme()
            .filter(|s| **s == Scheme::HTTP || **s == Scheme::HTTPS)
            .cloned()
            .ok_or_else(|| bad("the URL must start with http:// or https://"))?;
        let authority = uri
            .authority()
            .cloned()
            .ok_or_else(|| bad("the URL has no host"))?;
        if authority.as_str().contains('@') {
            return Err(bad("credentials in the URL would be written nowhere but sent everywhere; pass them from the app instead"));
        }
        if uri.query().is_some() {
            return Err(bad("the URL must not have a query"));
        }
        Ok(Route {
            name: name.to_string(),
            scheme,
            authority,
            base_path: uri.path().trim_end_matches('/').to_string(),
        })
    }

    /// Parse `NAME=URL` as given to `--upstream`.
    pub fn parse(spec: &str) -> Result<Route, RecordError> {
        let (name, url) = spec.split_once('=').ok_or_else(|| {
            RecordError::BadUpstream(format!(
                "{spec}: expected NAME=URL, e.g. vllm=http://127.0.0.1:8000/v1"
            ))
        })?;
        Route::new(name.trim(), url.trim())
    }

    pub fn is_https(&self) -> bool {
        self.scheme == Scheme::HTTPS
    }

    /// The upstream's host and port, for the `Host` header.
    pub fn authority(&self) -> &Authority {
        &self.authority
    }

    /// The upstream URI for `rest` (a path starting with `/`, or empty) and an optional query.
    fn target(&self, rest: &str, query: Option<&str>) -> Option<Uri> {
        let mut path_and_query = format!("{}{}", self.base_path, rest);
        if path_and_query.is_empty() {
            path_and_query.push('/');
        }
        if let Some(query) = query {
            path_and_query.push('?');
            path_and_query.push_str(query);
        }
        Uri::builder()
            .scheme(self.scheme.clone())
            .authority(self.authority.clone())
            .path_and_query(path_and_query)
            .build()
            .ok()
    }
}

impl fmt::Display for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}{}", self.scheme, self.authority, self.base_path)
    }
}

/// The routes in force, in the order they are listed at start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Routes {
    routes: Vec<Route>,
}

/// Where one request goes.
#[derive(Debug, Clone)]
pub struct Target<'a> {
    pub route: &'a Route,
    pub uri: Uri,
}

impl Default for Routes {
    fn default() -> Routes {
        let routes = DEFAULT_ROUTES
            .iter()
            .map(|(name, url)| Route::new(name, url).expect("the default routes are valid"))
            .collect();
        Routes { routes }
    }
}

impl Routes {
    /// The defaults with `extra` added, each replacing a default of the same name.
    pub fn with(extra: Vec<Route>) -> Routes {
        let mut routes = Routes::default();
        for route in extra {
            match routes.routes.iter_mut().find(|r| r.name == route.name) {
                Some(existing) => *existing = route,
                None => routes.routes.push(route),
            }
        }
        routes
    }

    pub fn iter(&self) -> impl Iterator<Item = &Route> {
        self.routes.iter()
    }

    /// The route and upstream URI for a request to the proxy, or `None` when its first
    /// path segment names no route.
    pub fn resolve(&self, uri: &Uri) -> Option<Target<'_>> {
        let path = uri.path().strip_prefix('/')?;
        let (name, rest) = match path.find('/') {
            Some(slash) => (&path[..slash], &path[slash..]),
            None => (path, ""),
        };
        let route = self.routes.iter().find(|r| r.name == name)?;
        let uri = route.target(rest, uri.query())?;
        Some(Target { route, uri })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(routes: &Routes, path: &str) -> Option<String> {
        let uri: Uri = path.parse().unwrap();
        routes.resolve(&uri).map(|t| t.uri.to_string())
    }

    #[test]
    fn a_route_prefix_stands_for_its_upstream() {
        let routes = Routes::default();
        assert_eq!(
            resolve(&routes, "/openai/chat/completions").as_deref(),
            Some("https://api.openai.com/v1/chat/completions")
        );
        assert_eq!(
            resolve(&routes, "/anthropic/v1/messages").as_deref(),
            Some("https://api.anthropic.com/v1/messages")
        );
        assert_eq!(
            resolve(&routes, "/gemini/v1beta/models/g:streamGenerateContent?alt=sse").as_deref(),
            Some("https://generativelanguage.googleapis.com/v1beta/models/g:streamGenerateContent?alt=sse")
        );
        assert_eq!(resolve(&routes, "/nope/x"), None);
        assert_eq!(resolve(&routes, "/openaix/chat"), None);
    }

    #[test]
    fn upstream_flags_add_and_replace_routes() {
        let routes = Routes::with(vec![
            Route::parse("openai=http://127.0.0.1:9/v1/").unwrap(),
            Route::parse("vllm=http://127.0.0.1:8000/v1").unwrap(),
        ]);
        assert_eq!(
            resolve(&routes, "/openai/models").as_deref(),
            Some("http://127.0.0.1:9/v1/models")
        );
        assert_eq!(
            resolve(&routes, "/vllm/chat/completions").as_deref(),
            Some("http://127.0.0.1:8000/v1/chat/completions")
        );
        assert_eq!(routes.iter().count(), 5);
    }

    #[test]
    fn bad_upstreams_are_refused_with_the_reason() {
        for spec in [
            "no-equals",
            "x=ftp://host",
            "x=not a url",
            "=http://h",
            "a/b=http://h",
            "x=http://user:pw@h",
            "x=http://h/?k=1",
        ] {
            let error = Route::parse(spec).unwrap_err().to_string();
            assert!(error.contains(spec.split('=').next().unwrap()), "{error}");
        }
    }
}
