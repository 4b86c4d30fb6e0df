/** Types of scripts/start.mjs, for the tests that import its helpers. */
export declare function newestMtime(paths: string[]): number;
export declare function needsBuild(root: string): boolean;
