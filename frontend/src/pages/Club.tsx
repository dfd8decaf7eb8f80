import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, idempotencyKey, unwrap, type Schemas } from "../api/client";
import { queryKeys } from "../api/queryKeys";
import { useRolePlaysSide, useTerms } from "../api/vocabulary";
import { Field, ShownOnce } from "../components/Field";
import { fieldErrorsOf } from "../components/FieldErrors";
import { ErrorNotice, QueryView } from "../components/status";
import { useCampaign } from "../session";

type Role = Schemas["RoleEnum"];
type Side = Schemas["Campaign"]["sides"][number];

// Weekdays as the API numbers them (0 = Monday), in the reader's words.
const WEEKDAYS = Array.from({ length: 7 }, (_, day) =>
  new Intl.DateTimeFormat("en-GB", { weekday: "long", timeZone: "UTC" }).format(new Date(Date.UTC(2024, 0, 1 + day))),
);

function dateWords(iso: string): string {
  return new Date(`${iso}T12:00:00Z`).toLocaleDateString("en-GB", {
    weekday: "short",
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
}

function momentWords(iso: string, timeZone: string): string {
  return new Date(iso).toLocaleString("en-GB", { dateStyle: "full", timeStyle: "short", timeZone });
}

interface NightDraft {
  day: string;
  date: string;
}

function ScheduleForm({ slug, schedule }: { slug: string; schedule: Schemas["Schedule"] }) {
  const queryClient = useQueryClient();
  const [weekday, setWeekday] = useState(schedule.night_weekday == null ? "" : String(schedule.night_weekday));
  const [time, setTime] = useState(schedule.night_time?.slice(0, 5) ?? "");
  const [leadHours, setLeadHours] = useState(String(schedule.orders_lead_hours));
  const [nights, setNights] = useState<NightDraft[]>(
    schedule.club_nights.map((night) => ({ day: String(night.campaign_day), date: night.play_date })),
  );
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT("/api/v1/campaigns/{campaign_slug}/schedule/", {
          params: { path: { campaign_slug: slug } },
          body: {
            night_weekday: weekday === "" ? null : Number(weekday),
            night_time: time === "" ? null : time,
            club_nights: nights.map((night) => ({ campaign_day: Number(night.day), play_date: night.date })),
            orders_lead_hours: leadHours === "" ? 0 : Number(leadHours),
          },
        }),
      ),
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.schedule(slug), saved);
      void queryClient.invalidateQueries({ queryKey: queryKeys.campaign(slug) });
    },
  });
  const fields = fieldErrorsOf(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const setNight = (index: number, change: Partial<NightDraft>) =>
    setNights((all) => all.map((night, i) => (i === index ? { ...night, ...change } : night)));

  return (
    <form className="card" onSubmit={submit} noValidate aria-label="Club schedule">
      <h3>Change the schedule</h3>
      <div className="filters">
        <Field id="night-weekday" label="Night phase on" errors={fields.night_weekday}>
          <select
            id="night-weekday"
            value={weekday}
            onChange={(e) => setWeekday(e.target.value)}
            aria-describedby="night-weekday-errors"
          >
            <option value="">No weekly night phase</option>
            {WEEKDAYS.map((name, day) => (
              <option key={name} value={day}>
                {name}
              </option>
            ))}
          </select>
        </Field>
        <Field id="night-time" label={`At (${schedule.time_zone})`} errors={fields.night_time}>
          <input
            id="night-time"
            type="time"
            value={time}
            onChange={(e) => setTime(e.target.value)}
            aria-describedby="night-time-errors"
          />
        </Field>
        <Field id="orders-lead-hours" label="Orders close (hours before)" errors={fields.orders_lead_hours}>
          <input
            id="orders-lead-hours"
            type="number"
            min={0}
            inputMode="numeric"
            value={leadHours}
            onChange={(e) => setLeadHours(e.target.value)}
            aria-describedby="orders-lead-hours-errors"
          />
        </Field>
      </div>
      <fieldset>
        <legend>Club nights</legend>
        {nights.map((night, index) => (
          <div className="filters" key={index} role="group" aria-label={`Club night ${index + 1}`}>
            <Field
              id={`night-${index}-day`}
              label="Campaign day"
              errors={fields[`club_nights[${index}].campaign_day`]}
            >
              <input
                id={`night-${index}-day`}
                type="number"
                min={1}
                inputMode="numeric"
                value={night.day}
                onChange={(e) => setNight(index, { day: e.target.value })}
                aria-describedby={`night-${index}-day-errors`}
              />
            </Field>
            <Field id={`night-${index}-date`} label="Played on" errors={fields[`club_nights[${index}].play_date`]}>
              <input
                id={`night-${index}-date`}
                type="date"
                value={night.date}
                onChange={(e) => setNight(index, { date: e.target.value })}
                aria-describedby={`night-${index}-date-errors`}
              />
            </Field>
            <button type="button" onClick={() => setNights((all) => all.filter((_, i) => i !== index))}>
              Remove club night {index + 1}
            </button>
          </div>
        ))}
        <button
          type="button"
          onClick={() =>
            setNights((all) => [...all, { day: String(all.length ? Number(all[all.length - 1]?.day) + 1 : 1), date: "" }])
          }
        >
          Add a club night
        </button>
      </fieldset>
      {save.error ? <ErrorNotice error={save.error} /> : null}
      {save.isSuccess ? <p role="status">Schedule saved.</p> : null}
      <button type="submit" disabled={save.isPending}>
        Save the schedule
      </button>
    </form>
  );
}

function ScheduleSection({ slug, isUmpire }: { slug: string; isUmpire: boolean }) {
  const schedule = useQuery({
    queryKey: queryKeys.schedule(slug),
    queryFn: () =>
      unwrap(api.GET("/api/v1/campaigns/{campaign_slug}/schedule/", { params: { path: { campaign_slug: slug } } })),
  });
  return (
    <section aria-labelledby="schedule-heading">
      <h2 id="schedule-heading">Schedule</h2>
      <QueryView query={schedule} what="the schedule">
        {(data) => (
          <>
            <dl className="facts">
              <dt>Night phase</dt>
              <dd>
                {data.night_weekday_label && data.night_time
                  ? `Every ${data.night_weekday_label} at ${data.night_time.slice(0, 5)} (${data.time_zone})`
                  : "Started by the umpire (no weekly time)"}
              </dd>
              {data.next_night_phase ? (
                <>
                  <dt>Next</dt>
                  <dd>{momentWords(data.next_night_phase, data.time_zone)}</dd>
                </>
              ) : null}
            </dl>
            {data.club_nights.length ? (
              <ul className="club-nights">
                {data.club_nights.map((night) => (
                  <li key={night.campaign_day}>
                    Campaign day {night.campaign_day}: {dateWords(night.play_date)}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">No club nights set yet.</p>
            )}
            {isUmpire ? <ScheduleForm slug={slug} schedule={data} /> : null}
          </>
        )}
      </QueryView>
    </section>
  );
}

function CalendarSection({ slug }: { slug: string }) {
  const queryClient = useQueryClient();
  const link = useQuery({
    queryKey: queryKeys.calendar(slug),
    queryFn: () =>
      unwrap(api.GET("/api/v1/campaigns/{campaign_slug}/calendar/", { params: { path: { campaign_slug: slug } } })),
  });
  const renew = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/calendar/renew/", { params: { path: { campaign_slug: slug } } }),
      ),
    onSuccess: (renewed) => queryClient.setQueryData(queryKeys.calendar(slug), renewed),
  });
  return (
    <section aria-labelledby="calendar-heading">
      <h2 id="calendar-heading">Your calendar</h2>
      <p>Subscribe to this address in your calendar app to see the club nights. It is yours alone: keep it to yourself.</p>
      <QueryView query={link} what="your calendar link">
        {(data) => (
          <div className="field">
            <label htmlFor="calendar-url">Calendar address</label>
            <input id="calendar-url" readOnly value={data.url} onFocus={(e) => e.currentTarget.select()} />
          </div>
        )}
      </QueryView>
      {renew.error ? <ErrorNotice error={renew.error} /> : null}
      <button type="button" onClick={() => renew.mutate()} disabled={renew.isPending}>
        Make a new calendar address (the old one stops working)
      </button>
    </section>
  );
}

function RoleSide({
  prefix,
  role,
  side,
  sides,
  onRole,
  onSide,
  fields,
}: {
  prefix: string;
  role: Role;
  side: string;
  sides: Side[];
  onRole: (role: Role) => void;
  onSide: (side: string) => void;
  fields: Record<string, string[]>;
}) {
  const roles = useTerms("member_role");
  const playsSide = useRolePlaysSide();
  return (
    <>
      <Field id={`${prefix}-role`} label="Role" errors={fields.role}>
        <select
          id={`${prefix}-role`}
          value={role}
          onChange={(e) => onRole(e.target.value as Role)}
          aria-describedby={`${prefix}-role-errors`}
        >
          {roles.map((term) => (
            <option key={term.value} value={term.value}>
              {term.label}
            </option>
          ))}
        </select>
      </Field>
      {playsSide(role) ? (
        <Field id={`${prefix}-side`} label="Side" errors={fields.side}>
          <select
            id={`${prefix}-side`}
            value={side}
            onChange={(e) => onSide(e.target.value)}
            aria-describedby={`${prefix}-side-errors`}
          >
            <option value="">Choose a side</option>
            {sides.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </Field>
      ) : null}
    </>
  );
}

function InviteForm({ slug, sides }: { slug: string; sides: Side[] }) {
  const queryClient = useQueryClient();
  const playsSide = useRolePlaysSide();
  const [role, setRole] = useState<Role>("player");
  const [side, setSide] = useState("");
  const [days, setDays] = useState("7");
  const [key, setKey] = useState(idempotencyKey);
  const invite = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/invitations/", {
          params: { path: { campaign_slug: slug }, header: { "Idempotency-Key": key } },
          body: {
            role,
            side: playsSide(role) && side ? Number(side) : null,
            expires_in_days: Number(days),
          },
        }),
      ),
    onSuccess: () => {
      setKey(idempotencyKey());
      void queryClient.invalidateQueries({ queryKey: queryKeys.invitations(slug) });
    },
  });
  const fields = fieldErrorsOf(invite.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate();
  };
  return (
    <form className="card" onSubmit={submit} noValidate aria-label="Invite by link">
      <h3>Invite by link</h3>
      <div className="filters">
        <RoleSide prefix="invite" role={role} side={side} sides={sides} onRole={setRole} onSide={setSide} fields={fields} />
        <Field id="invite-days" label="Valid for (days)" errors={fields.expires_in_days}>
          <input
            id="invite-days"
            type="number"
            min={1}
            max={30}
            value={days}
            onChange={(e) => setDays(e.target.value)}
            aria-describedby="invite-days-errors"
          />
        </Field>
      </div>
      {invite.error && !Object.keys(fields).length ? <ErrorNotice error={invite.error} /> : null}
      <button type="submit" disabled={invite.isPending}>
        Make an invitation link
      </button>
      {invite.data?.link ? (
        <ShownOnce
          label="Invitation link"
          value={invite.data.link}
          note="Send it to the person you invite: it works once, and is shown only now."
        />
      ) : null}
    </form>
  );
}

function AccountForm({ slug, sides }: { slug: string; sides: Side[] }) {
  const queryClient = useQueryClient();
  const playsSide = useRolePlaysSide();
  const [username, setUsername] = useState("");
  const [role, setRole] = useState<Role>("player");
  const [side, setSide] = useState("");
  const [key, setKey] = useState(idempotencyKey);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/members/", {
          params: { path: { campaign_slug: slug }, header: { "Idempotency-Key": key } },
          body: { username, role, side: playsSide(role) && side ? Number(side) : null },
        }),
      ),
    onSuccess: () => {
      setKey(idempotencyKey());
      void queryClient.invalidateQueries({ queryKey: queryKeys.members(slug) });
    },
  });
  const fields = fieldErrorsOf(create.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form className="card" onSubmit={submit} noValidate aria-label="Create an account">
      <h3>Create an account</h3>
      <div className="filters">
        <Field id="account-username" label="Username" errors={fields.username}>
          <input
            id="account-username"
            autoComplete="off"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            aria-describedby="account-username-errors"
          />
        </Field>
        <RoleSide prefix="account" role={role} side={side} sides={sides} onRole={setRole} onSide={setSide} fields={fields} />
      </div>
      {create.error && !Object.keys(fields).length ? <ErrorNotice error={create.error} /> : null}
      <button type="submit" disabled={create.isPending}>
        Create the account
      </button>
      {create.data?.initial_password ? (
        <ShownOnce
          label={`Initial password of ${create.data.username}`}
          value={create.data.initial_password}
          note="Hand it to them: it is shown only now."
        />
      ) : null}
    </form>
  );
}

function MembersSection({ slug, sides }: { slug: string; sides: Side[] }) {
  const queryClient = useQueryClient();
  const members = useQuery({
    queryKey: queryKeys.members(slug),
    queryFn: () =>
      unwrap(api.GET("/api/v1/campaigns/{campaign_slug}/members/", { params: { path: { campaign_slug: slug } } })),
  });
  const invitations = useQuery({
    queryKey: queryKeys.invitations(slug),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/invitations/", {
          params: { path: { campaign_slug: slug }, query: { page_size: 20 } },
        }),
      ),
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      unwrap(
        api.DELETE("/api/v1/campaigns/{campaign_slug}/members/{id}/", { params: { path: { campaign_slug: slug, id } } }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.members(slug) }),
  });
  return (
    <section aria-labelledby="members-heading">
      <h2 id="members-heading">Members</h2>
      {remove.error ? <ErrorNotice error={remove.error} /> : null}
      <QueryView query={members} what="the members">
        {(list) => (
          <ul className="cards members">
            {list.map((member) => (
              <li key={member.id} className="card member">
                {/* A login name may be a role's word ("umpire"): the dash keeps "umpire — Umpire" two things. */}
                <strong>{member.username}</strong> —{" "}
                <span className="muted">
                  {member.role_label}
                  {member.side_name ? ` of ${member.side_name}` : ""}
                </span>{" "}
                <button
                  type="button"
                  onClick={() => remove.mutate(member.id)}
                  disabled={remove.isPending}
                  aria-label={`Remove ${member.username}`}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      <InviteForm slug={slug} sides={sides} />
      <AccountForm slug={slug} sides={sides} />
      <h3>Invitation links</h3>
      <QueryView query={invitations} what="the invitations">
        {(page) =>
          page.results.length ? (
            <ul className="invitations">
              {page.results.map((invitation) => (
                <li key={invitation.id}>
                  {invitation.role_label}
                  {invitation.side_name ? ` of ${invitation.side_name}` : ""}:{" "}
                  {invitation.accepted_by
                    ? `accepted by ${invitation.accepted_by}`
                    : invitation.expired
                      ? "expired"
                      : `open until ${new Date(invitation.expires_at).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })}`}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No invitation links yet.</p>
          )
        }
      </QueryView>
    </section>
  );
}

/** The club's page: the schedule and your calendar for every member; members, invitations
 * and the export for umpires. */
export function ClubPage() {
  const { campaign, isUmpire } = useCampaign();
  const exportUrl = (format: string) => `/api/v1/campaigns/${campaign.slug}/export/?file_format=${format}`;
  return (
    <section className="club">
      <h1>Club</h1>
      <ScheduleSection slug={campaign.slug} isUmpire={isUmpire} />
      <CalendarSection slug={campaign.slug} />
      {isUmpire ? (
        <>
          <MembersSection slug={campaign.slug} sides={campaign.sides} />
          <section aria-labelledby="export-heading">
            <h2 id="export-heading">Export</h2>
            <p>The whole campaign as a scenario pack, to keep or to import elsewhere.</p>
            <p className="actions">
              <a href={exportUrl("yaml")} download>
                Download as YAML
              </a>
              <a href={exportUrl("json")} download>
                Download as JSON
              </a>
            </p>
          </section>
        </>
      ) : null}
    </section>
  );
}
