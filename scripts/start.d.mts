/** Types of scripts/start.mjs, for the tests that import its helpers. */
export declare function needsBuild(root: string): boolean;
export declare function isStale(root: string, built: string, record: string): boolean;
