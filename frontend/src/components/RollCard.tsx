import type { Schemas } from "../api/client";

function signed(value: number): string {
  return value >= 0 ? `+${value}` : String(value);
}

/** One die roll as the audit trail keeps it: one line (what, when, outcome) that opens to its
 * dice, faces, modifiers, threshold and rule; `open` when it sits in a line already opened. */
export function RollCard({ roll, open = false }: { roll: Schemas["Roll"]; open?: boolean }) {
  const result = roll.output;
  const where = [roll.day ? `day ${roll.day}` : null, roll.segment_label?.toLowerCase(), roll.battalion].filter(Boolean);
  const outcome = result ? result.outcome_text : roll.line;
  return (
    <details className="roll" open={open}>
      <summary>
        <strong>{result?.title ?? roll.procedure}</strong>
        {where.length ? <span className="muted"> · {where.join(" · ")}</span> : null}
        {roll.override_of ? <span className="tag">override</span> : null}
        {roll.table_roll ? <span className="tag">{roll.table_roll}</span> : null}
        {outcome ? <span className="outcome">: {outcome}</span> : <span className="masked">: hidden</span>}
      </summary>
      {result ? (
        <dl className="facts">
          <dt>Dice</dt>
          <dd>
            {result.dice.map((thrown) => thrown.text).join(", ")}
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
          {result.threshold === null ? null : (
            <>
              <dt>Threshold</dt>
              <dd>{`${result.comparison ?? ""} ${result.threshold}`.trim()}</dd>
            </>
          )}
          {result.cell ? (
            <>
              <dt>Read from the chart</dt>
              <dd>
                <q className="chart-cell">{result.cell}</q>
              </dd>
            </>
          ) : null}
          <dt>Outcome</dt>
          <dd>{result.outcome_text ?? <span className="masked">hidden</span>}</dd>
          <dt>Rule</dt>
          <dd>{roll.rule}</dd>
        </dl>
      ) : null}
      {roll.line ? <p className="line">{roll.line}</p> : null}
    </details>
  );
}
