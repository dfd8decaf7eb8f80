import type { Schemas } from "../api/client";

function signed(value: number): string {
  return value >= 0 ? `+${value}` : String(value);
}

/** One die roll as the audit trail keeps it: dice, faces, modifiers, threshold, outcome, rule. */
export function RollCard({ roll }: { roll: Schemas["Roll"] }) {
  const result = roll.output;
  const where = [roll.day ? `day ${roll.day}` : null, roll.segment_label?.toLowerCase(), roll.battalion].filter(Boolean);
  return (
    <article className="card roll" aria-label={`roll ${roll.id}`}>
      <header>
        <strong>{result?.title ?? roll.procedure}</strong>
        {where.length ? <span className="muted"> · {where.join(" · ")}</span> : null}
      </header>
      {result ? (
        <dl className="facts">
          <dt>Dice</dt>
          <dd>
            {result.dice.map((thrown, index) => (
              <span key={index} className="dice">
                {thrown.dice}:{" "}
                {thrown.faces.map((face, faceIndex) => (
                  <span key={faceIndex} className="face" aria-label={`face ${face}`}>
                    {face}
                  </span>
                ))}
              </span>
            ))}
          </dd>
          <dt>Modifiers</dt>
          <dd>
            {result.modifiers.length
              ? result.modifiers
                  .map((m) => `${signed(m.value)} ${m.name}${m.applies_to === "threshold" ? " (to threshold)" : ""}`)
                  .join(", ")
              : "none"}
          </dd>
          <dt>Score</dt>
          <dd>{result.score}</dd>
          <dt>Threshold</dt>
          <dd>
            {result.threshold === null ? "none" : `${result.comparison ?? ""} ${result.threshold}`.trim()}
            {result.cell ? ` [${result.cell}]` : ""}
          </dd>
          <dt>Outcome</dt>
          <dd>{result.outcome_text ?? JSON.stringify(result.outcome)}</dd>
          <dt>Rule</dt>
          <dd>{roll.rule}</dd>
        </dl>
      ) : null}
      <p className="line">{roll.line}</p>
    </article>
  );
}
