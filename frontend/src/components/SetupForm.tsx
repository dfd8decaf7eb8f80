import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, idempotencyKey, unwrap, type Schemas } from "../api/client";
import { queryKeys } from "../api/queryKeys";
import { sideName } from "../lib/sides";
import { QueryView } from "./status";
import { FieldErrors, SubmitErrors, placedErrors } from "./FieldErrors";

type Question = Schemas["SetupQuestion"];
type Input = Schemas["SetupInput"];
type Answers = Record<string, Record<string, string>>;

function defaultWords(input: Input): string {
  if (input.default === undefined || input.default === null) return "the chart's";
  if (typeof input.default === "boolean") return input.default ? "yes" : "no";
  return String(input.default);
}

// The faces of a step rolled at the table: an answer under this name, "6 2" or "6, 2".
const FACES = "faces";

/** The faces entered for the steps rolled at the table, by step; blanks left out. */
function facesBody(questions: readonly Question[], answers: Answers): Record<string, number[]> {
  const body: Record<string, number[]> = {};
  for (const question of questions) {
    const text = (answers[question.step]?.[FACES] ?? "").trim();
    if (question.at_table && text !== "") body[question.step] = text.split(/[\s,]+/).map(Number);
  }
  return body;
}

/** The answers the umpire gave, typed as the procedures take them; blanks left out. */
function inputsBody(questions: readonly Question[], answers: Answers): Record<string, Record<string, unknown>> {
  const body: Record<string, Record<string, unknown>> = {};
  for (const question of questions) {
    for (const input of question.inputs) {
      const text = answers[question.step]?.[input.name] ?? "";
      if (text === "") continue;
      const value = input.value_type === "integer" ? Number(text) : input.value_type === "boolean" ? text === "yes" : text;
      body[question.step] = { ...body[question.step], [input.name]: value };
    }
  }
  return body;
}

/** The 1943 set-up roll: a form for what its procedures ask the umpire (the terrain, …), by step
 * and side; the API's errors next to the input they name and next to the button. */
export function SetupForm({ campaign, battle }: { campaign: Schemas["Campaign"]; battle: Schemas["Battle"] }) {
  const slug = campaign.slug;
  const queryClient = useQueryClient();
  const [answers, setAnswers] = useState<Answers>({});
  const [key, setKey] = useState(idempotencyKey);
  const path = { campaign_slug: slug, id: battle.id };
  const questions = useQuery({
    queryKey: queryKeys.battleSetupInputs(slug, battle.id),
    queryFn: () =>
      unwrap(api.GET("/api/v1/campaigns/{campaign_slug}/battles/{id}/setup-inputs/", { params: { path } })),
  });
  const roll = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/battles/{id}/setup/", {
          params: { path, header: { "Idempotency-Key": key } },
          body: {
            inputs: inputsBody(questions.data ?? [], answers),
            faces: facesBody(questions.data ?? [], answers),
          },
        }),
      ),
    onSuccess: (rolled) => {
      setKey(idempotencyKey());
      queryClient.setQueryData(queryKeys.battle(slug, battle.id), rolled);
      void queryClient.invalidateQueries({ queryKey: queryKeys.battles(slug) });
    },
  });
  const { fields, errorsFor, unplaced } = placedErrors(roll.error);
  const answer = (step: string, name: string, text: string) =>
    setAnswers({ ...answers, [step]: { ...answers[step], [name]: text } });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    roll.mutate();
  };

  const control = (question: Question, input: Input) => {
    const id = `setup-${question.step}-${input.name}`.replace(/[^A-Za-z0-9_-]/g, "-");
    const path = `inputs.${question.step}.${input.name}`;
    const value = answers[question.step]?.[input.name] ?? "";
    const common = {
      id,
      value,
      "aria-invalid": (fields[path] ?? []).length > 0,
      "aria-describedby": `${id}-errors`,
    };
    const blank = input.needed ? "choose…" : `default (${defaultWords(input)})`;
    return (
      <div className="field" key={input.name}>
        <label htmlFor={id}>{input.label}</label>
        {input.value_type === "integer" ? (
          <input
            {...common}
            type="number"
            inputMode="numeric"
            placeholder={input.needed ? "" : defaultWords(input)}
            onChange={(e) => answer(question.step, input.name, e.target.value)}
          />
        ) : input.value_type === "choice" || input.value_type === "boolean" ? (
          <select {...common} onChange={(e) => answer(question.step, input.name, e.target.value)}>
            <option value="">{blank}</option>
            {(input.value_type === "boolean" ? ["yes", "no"] : (input.choices ?? [])).map((choice) => (
              <option key={choice} value={choice}>
                {choice}
              </option>
            ))}
          </select>
        ) : (
          <input {...common} onChange={(e) => answer(question.step, input.name, e.target.value)} />
        )}
        <FieldErrors id={`${id}-errors`} messages={errorsFor(path)} />
      </div>
    );
  };

  return (
    <QueryView query={questions} what="the set-up's questions">
      {(asked) => {
        const steps = asked.map((question) => {
          const needed = question.inputs.filter((input) => input.needed);
          const optional = question.inputs.filter((input) => !input.needed);
          const messages = [...errorsFor(`inputs.${question.step}`), ...errorsFor(`faces.${question.step}`)];
          if (!question.inputs.length && !question.at_table && !messages.length) return null;
          const facesId = `setup-${question.step}-faces`.replace(/[^A-Za-z0-9_-]/g, "-");
          return (
            <fieldset key={question.step}>
              <legend>
                {question.title} · {question.side === null ? "both sides" : sideName(campaign, question.side)}
              </legend>
              {question.at_table ? (
                <div className="field">
                  <label htmlFor={facesId}>Faces rolled at the table</label>
                  <input
                    id={facesId}
                    inputMode="numeric"
                    placeholder="blank: the campaign's dice roll it"
                    value={answers[question.step]?.[FACES] ?? ""}
                    aria-invalid={errorsFor(`faces.${question.step}`).length > 0}
                    onChange={(e) => answer(question.step, FACES, e.target.value)}
                  />
                </div>
              ) : null}
              {needed.map((input) => control(question, input))}
              {optional.length ? (
                <details>
                  <summary>More inputs ({optional.length}, defaults apply)</summary>
                  {optional.map((input) => control(question, input))}
                </details>
              ) : null}
              <FieldErrors id={`setup-${question.step}-errors`.replace(/[^A-Za-z0-9_-]/g, "-")} messages={messages} />
            </fieldset>
          );
        });
        return (
          <form className="setup-form" onSubmit={submit} noValidate aria-label="Battle set-up">
            <h2>Roll the 1943 set-up</h2>
            <p className="muted">
              Everything the campaign knows (year, nations, stands, air cover priority, …) is filled in; the rest is
              asked here.
            </p>
            {steps}
            <SubmitErrors error={roll.error} unplaced={unplaced()} />
            <button type="submit" disabled={roll.isPending}>
              {roll.isPending ? "Rolling…" : "Roll the set-up"}
            </button>
          </form>
        );
      }}
    </QueryView>
  );
}
