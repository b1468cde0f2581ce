// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.

export const getContentCalendarSummary = 'Content calendar: scheduled, published, failed and recorded-only dates, with cadence counts.';
