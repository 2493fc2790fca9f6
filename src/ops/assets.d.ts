/** Files embedded with `import x from "..." with { type: "file" }`: their path. */
declare module "*/standalone.js" {
  const path: string;
  export default path;
}
