// The queries the docs show (docs/graphql.md): GraphiQL opens with the portfolio, tests hold both to their upstream
// call counts, and a test generates a typed client for them (graphql-codegen, tsc --strict).
export const PORTFOLIO_QUERY = `query Portfolio {
  projects {
    totalCount
    nodes {
      key
      name
      summary(period: "28days", compare: previous) { sessions { value previous deltaPct } activeUsers { value } }
      search(period: "28days", sp: all) { clicks { value } impressions { value } position { value } }
      countries: breakdown(dimension: "country", period: "28days", limit: 5) {
        totalRows
        rows { value country { code } metric(name: "sessions") { value } }
      }
    }
  }
}
`;

/** Last month against the month before, for every project, in each project's own time zone: one request. */
export const MONTH_OVER_MONTH_QUERY = `query MonthOverMonth {
  projects {
    nodes {
      key
      timezone
      summary(period: "last_month", compare: previous) {
        period { start end }
        sessions { value previous deltaPct }
        keyEvents { value previous deltaPct }
      }
      search(period: "last_month", compare: previous) { clicks { value previous deltaPct } }
    }
  }
}
`;
