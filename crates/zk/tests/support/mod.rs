pub mod ceremony;
