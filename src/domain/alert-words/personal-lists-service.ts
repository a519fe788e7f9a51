import type { Clock } from "../../clock.js";
import { JsonableError } from "../../errors.js";
import type { ChangeBus } from "../../infra/change-bus.js";
import type { PersonalListsRepo } from "../../store/personal-lists-repo.js";
import type { EventSink } from "../events/event-sink.js";
import type { User } from "../users/types.js";
import { AlertWordMatcher } from "./alert-word-matcher.js";

/** Zulip's limit on one alert word. */
const MAX_ALERT_WORD_LENGTH = 100;
/** Our limit on one user's alert words (Zulip sets none): what the matcher holds stays bounded. */
export const MAX_ALERT_WORDS = 1000;

export interface ListUsers {
  byId(id: number): Promise<User | undefined>;
}

/** Alert words (/users/me/alert_words) and muted users (/users/me/muted_users/{id}), with events. */
export class PersonalListsService {
  /** Every user's alert words (few users have any), read once and dropped on every change. */
  private everyone: AlertWordMatcher | undefined;
  /** Bumped by every change, so a read that raced one is not kept. */
  private generation = 0;

  constructor(
    private readonly repo: PersonalListsRepo,
    private readonly users: ListUsers,
    private readonly events: EventSink,
    private readonly clock: Clock,
    /** With `--redis`: a change made by another process drops this process's copy too. */
    private readonly changes?: ChangeBus,
  ) {
    changes?.subscribe("alert-words", () => this.forget());
  }

  private forget(): void {
    this.everyone = undefined;
    this.generation++;
  }

  private async matcher(): Promise<AlertWordMatcher> {
    if (this.everyone !== undefined) return this.everyone;
    const generation = this.generation;
    const matcher = new AlertWordMatcher(await this.repo.allAlertWords());
    if (generation === this.generation) this.everyone = matcher;
    return matcher;
  }

  alertWords(user: User): Promise<string[]> {
    return this.repo.alertWords(user.id);
  }

  /** Adds the words not already there (any case); nothing is added when one of them is refused. */
  async addAlertWords(user: User, words: readonly string[]): Promise<string[]> {
    words.forEach((raw, i) => {
      if ([...raw].length > MAX_ALERT_WORD_LENGTH) {
        throw new JsonableError(`alert_words[${i}] is too long (limit: ${MAX_ALERT_WORD_LENGTH} characters)`);
      }
    });
    const current = await this.repo.alertWords(user.id);
    const lower = new Set(current.map((w) => w.toLowerCase()));
    const added: string[] = [];
    for (const raw of words) {
      const word = raw.trim();
      if (word === "" || lower.has(word.toLowerCase())) continue;
      lower.add(word.toLowerCase());
      added.push(word);
    }
    if (current.length + added.length > MAX_ALERT_WORDS) {
      throw new JsonableError(`Too many alert words (limit: ${MAX_ALERT_WORDS})`);
    }
    for (const word of added) await this.repo.addAlertWord(user.id, word, MAX_ALERT_WORDS);
    return this.publishAlertWords(user);
  }

  async removeAlertWords(user: User, words: readonly string[]): Promise<string[]> {
    const current = await this.repo.alertWords(user.id);
    const drop = new Set(words.map((w) => w.trim().toLowerCase()));
    for (const word of current)
      if (drop.has(word.toLowerCase())) await this.repo.removeAlertWord(user.id, word);
    return this.publishAlertWords(user);
  }

  private async publishAlertWords(user: User): Promise<string[]> {
    this.forget();
    this.changes?.publish("alert-words");
    const words = await this.repo.alertWords(user.id);
    this.events.send({ type: "alert_words", alert_words: words }, [user.id]);
    return words;
  }

  /** Which of `userIds` have an alert word in `content` (their copies get `has_alert_word`). */
  async usersAlerted(content: string, userIds: readonly number[]): Promise<Set<number>> {
    const owners = (await this.matcher()).owners(content);
    if (owners.size === 0) return owners;
    const wanted = new Set(userIds);
    return new Set([...owners].filter((id) => wanted.has(id)));
  }

  mutedUsers(user: User): Promise<{ id: number; timestamp: number }[]> {
    return this.repo.mutedUsers(user.id);
  }

  async mute(user: User, mutedUserId: number): Promise<void> {
    if (mutedUserId === user.id) throw new JsonableError("Cannot mute self");
    const target = await this.users.byId(mutedUserId);
    if (target === undefined || target.realmId !== user.realmId) throw new JsonableError("No such user");
    const muted = await this.repo.mutedUsers(user.id);
    if (muted.some((m) => m.id === mutedUserId)) throw new JsonableError("User already muted");
    await this.repo.mute(user.id, mutedUserId, Math.floor(this.clock.now() / 1000));
    await this.publishMuted(user);
  }

  async unmute(user: User, mutedUserId: number): Promise<void> {
    const target = await this.users.byId(mutedUserId);
    if (target === undefined || target.realmId !== user.realmId) throw new JsonableError("No such user");
    const muted = await this.repo.mutedUsers(user.id);
    if (!muted.some((m) => m.id === mutedUserId)) throw new JsonableError("User is not muted");
    await this.repo.unmute(user.id, mutedUserId);
    await this.publishMuted(user);
  }

  private async publishMuted(user: User): Promise<void> {
    this.events.send({ type: "muted_users", muted_users: await this.repo.mutedUsers(user.id) }, [user.id]);
  }
}
