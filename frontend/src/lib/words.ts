/** English number agreement for the web app's own sentences: "1 point", "2 points", "0 points". */
export function noun(count: number, word: string): string {
  return count === 1 ? word : `${word}s`;
}

/** The count and its noun: "1 battle", "3 battles". */
export function plural(count: number, word: string): string {
  return `${count} ${noun(count, word)}`;
}
