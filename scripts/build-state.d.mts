/** Types of build-state.mjs, for the TypeScript that imports it (the end-to-end tests' setup). */
export declare const repoRoot: string;
export declare function bin(name: string): string;
export declare function whyBuild(files: string[]): string | null;
export declare function ensureBuilt(files: string[], log?: (line: string) => void): boolean;
