/**
 * Scalar's prebuilt reference page script (@scalar/api-reference, a devDependency: only a
 * clone and the compiled executable serve /api/docs), embedded in the executable as a
 * file. Loaded on demand, so a checkout without it (the test SDK installed in a bot's
 * repository) still starts.
 */
import scalarJs from "../../node_modules/@scalar/api-reference/dist/browser/standalone.js" with { type: "file" };

export const SCALAR_JS: string = scalarJs;
