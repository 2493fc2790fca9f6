#!/usr/bin/env bun
/** Entry point of the `parley` executable (also the compiled binary's entry). */
import { main } from "./cli";

const code = await main(process.argv.slice(2), process.env);
if (code !== 0) process.exit(code);
