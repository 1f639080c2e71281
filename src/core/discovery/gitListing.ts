// What a git listing holds, apart from how it is made (gitList.ts) or remembered (gitAnswers.ts),
// so the two depend on this and not on each other.
export interface GitListing {
  /** Paths relative to the root (POSIX, as git prints them), tracked and untracked-not-ignored. */
  paths: string[];
  /** Index mode of tracked paths (`100644`, `120000` symlink, `160000` submodule). */
  modes: Map<string, string>;
}
