/** The words of every code the API takes or gives (`GET /api/v1/vocabulary/`): a select's,
 * a radio's or a legend's labels come from here, never from the web app. */
import { useQuery } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "./client";
import { queryKeys } from "./queryKeys";

export type Vocabulary = Schemas["Vocabulary"];
export type VocabularyList = keyof Vocabulary["lists"];
export type Term = Schemas["Term"];

/** Read once a session: the vocabulary changes only with a release. */
export function useVocabulary() {
  return useQuery({
    queryKey: queryKeys.vocabulary,
    queryFn: () => unwrap(api.GET("/api/v1/vocabulary/")),
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

/** One list's terms; empty until the vocabulary has arrived. */
export function useTerms(list: VocabularyList): readonly Term[] {
  return useVocabulary().data?.lists[list] ?? [];
}

/** Whether a member of `role` plays a side (and names it); false until the vocabulary has arrived. */
export function useRolePlaysSide(): (role: string) => boolean {
  const roles: readonly string[] = useVocabulary().data?.roles_with_side ?? [];
  return (role) => roles.includes(role);
}

/** The label of `value` in `terms`; the value itself for a code the list does not know. */
export function labelIn(terms: readonly Term[], value: string): string {
  return terms.find((term) => term.value === value)?.label ?? value;
}
