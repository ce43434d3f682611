// The Portfolio query: every project's sessions, search clicks and top countries in one request. GraphiQL opens
// with it, the docs show it, and a test holds it to its upstream call counts.
export const PORTFOLIO_QUERY = `query Portfolio {
  projects {
    key
    summary(period: "28days", compare: PREVIOUS) { sessions { value previous deltaPct } activeUsers { value } }
    search(period: "28days", sp: ALL) { clicks { value } impressions { value } position { value } }
    countries: breakdown(dimension: "country", period: "28days", limit: 5) { totalRows rows { value metric(name: "sessions") { value } } }
  }
}
`;
