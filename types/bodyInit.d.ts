// The generated TypeScript client (clients/typescript) names the DOM's `BodyInit`; this project compiles against Node's
// types without the DOM library, where fetch's body type is `RequestInit['body']`.
type BodyInit = NonNullable<RequestInit['body']>;
