import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { api, idempotencyKey, unwrap, type Schemas } from "../api/client";
import { queryKeys } from "../api/queryKeys";
import { Field } from "../components/Field";
import { fieldErrorsOf } from "../components/FieldErrors";
import { ErrorNotice } from "../components/status";

type BasedOn = Schemas["CampaignCreateInputRequest"]["based_on"];
const PACK = "pack";

/** A pack's issues, each at its path in the file (the API names them `pack.<path>`). */
export function packIssues(fields: Record<string, string[]>): Array<[string, string]> {
  return Object.entries(fields)
    .filter(([path]) => path === PACK || path.startsWith(`${PACK}.`))
    .flatMap(([path, messages]) =>
      messages.map((message): [string, string] => [path === PACK ? "" : path.slice(PACK.length + 1), message]),
    );
}

/** A file's text through FileReader, which every browser (and the tests' jsdom) has. */
function fileText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error(`could not read ${file.name}`));
    reader.readAsText(file);
  });
}

export function NewCampaignPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [basedOn, setBasedOn] = useState<BasedOn>("demo");
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  // One key per intended campaign: a retry after a lost answer does not make a second one.
  const [key, setKey] = useState(idempotencyKey);
  const create = useMutation({
    mutationFn: async () => {
      const body: Schemas["CampaignCreateInputRequest"] = { based_on: basedOn };
      if (name.trim()) body.name = name.trim();
      if (slug.trim()) body.slug = slug.trim();
      if (basedOn === "pack" && file) {
        body.pack = await fileText(file);
        body.pack_file_name = file.name;
      }
      return unwrap(api.POST("/api/v1/campaigns/", { params: { header: { "Idempotency-Key": key } }, body }));
    },
    onSuccess: (campaign) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.campaigns });
      void queryClient.invalidateQueries({ queryKey: queryKeys.session });
      navigate(`/campaigns/${campaign.slug}`);
    },
    onError: () => setKey(idempotencyKey()), // the next try sends what was changed
  });
  const fields = fieldErrorsOf(create.error);
  const issues = packIssues(fields);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };

  return (
    <section>
      <h1>New campaign</h1>
      <form className="card" onSubmit={submit} noValidate aria-label="New campaign">
        <fieldset className="choices">
          <legend>Start from</legend>
          <label>
            <input
              type="radio"
              name="based_on"
              checked={basedOn === "demo"}
              onChange={() => setBasedOn("demo")}
            />{" "}
            The Malta 1942 demo
          </label>
          <label>
            <input
              type="radio"
              name="based_on"
              checked={basedOn === "pack"}
              onChange={() => setBasedOn("pack")}
            />{" "}
            A scenario pack file (YAML or JSON)
          </label>
        </fieldset>
        {basedOn === "pack" ? (
          <div className="field">
            <label htmlFor="pack">Scenario pack file</label>
            <input
              id="pack"
              type="file"
              accept=".yaml,.yml,.json,application/json,application/yaml"
              onChange={(event) => setFile(event.target.files?.[0] ?? null)}
              aria-invalid={issues.length > 0}
              aria-describedby="pack-errors"
            />
            <div id="pack-errors" className="field-errors" role={issues.length ? "alert" : undefined}>
              {issues.length ? (
                <>
                  <p>The pack was not imported. Fix these places in the file:</p>
                  <ul className="pack-issues">
                    {issues.map(([path, message]) => (
                      <li key={`${path}:${message}`}>
                        {path ? <code>{path}</code> : "The file"}: {message}
                      </li>
                    ))}
                  </ul>
                </>
              ) : null}
            </div>
          </div>
        ) : null}
        <Field id="name" label="Name (default: the pack's)" errors={fields.name}>
          <input id="name" value={name} onChange={(e) => setName(e.target.value)} aria-describedby="name-errors" />
        </Field>
        <Field id="slug" label="Address name, in the URL (default: the pack's)" errors={fields.slug}>
          <input id="slug" value={slug} onChange={(e) => setSlug(e.target.value)} aria-describedby="slug-errors" />
        </Field>
        {create.error && !issues.length ? <ErrorNotice error={create.error} /> : null}
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create the campaign"}
        </button>
      </form>
    </section>
  );
}
