import { FieldErrors } from "./FieldErrors";

/** A turn of the segment under way (the campaign summary's segment_turns): the dawn turn (0),
 * then turn 1 to 10, as the umpire reads them. */
export function TurnField({
  id,
  turns,
  turn,
  onChange,
  errors,
}: {
  id: string;
  turns: readonly number[];
  turn: number;
  onChange: (turn: number) => void;
  errors: readonly string[];
}) {
  return (
    <div className="field">
      <label htmlFor={`${id}-turn`}>Turn</label>
      <select
        id={`${id}-turn`}
        value={turn}
        aria-describedby={`${id}-turn-errors`}
        onChange={(e) => onChange(Number(e.target.value))}
      >
        {turns.map((t) => (
          <option key={t} value={t}>
            {t === 0 ? "Dawn" : `Turn ${t}`}
          </option>
        ))}
      </select>
      <FieldErrors id={`${id}-turn-errors`} messages={errors} />
    </div>
  );
}
