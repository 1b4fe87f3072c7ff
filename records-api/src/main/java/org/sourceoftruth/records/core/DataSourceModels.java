package org.sourceoftruth.records.core;

import static org.sourceoftruth.records.model.Fields.*;

import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.ExtraFilters;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.Row;

/**
 * core: data sources, the files their synchronisation found (read-only) and the background jobs
 * that synchronised them (read-only). Only the {@code local} type is synchronised here (a
 * directory on the server, see {@link DataSourceSync}); git and amazon-s3 sources are stored as
 * NetBox stores them, and their synchronisation fails with a job error saying so.
 */
@ApplicationScoped
public class DataSourceModels implements ModelDefinition {
    public static final ChoiceSet TYPE = ChoiceSet.of("local", "Local", "git", "Git", "amazon-s3", "Amazon S3");
    public static final ChoiceSet STATUS = ChoiceSet.of(
            "new", "New", "queued", "Queued", "syncing", "Syncing", "completed", "Completed", "failed", "Failed");
    /** When a job's user is notified of its end (NetBox 4.5's JobNotificationChoices). */
    public static final ChoiceSet JOB_NOTIFICATIONS =
            ChoiceSet.of("always", "Always", "on_failure", "On failure", "never", "Never");

    public static final ChoiceSet JOB_STATUS = ChoiceSet.of(
            "pending",
            "Pending",
            "scheduled",
            "Scheduled",
            "running",
            "Running",
            "completed",
            "Completed",
            "errored",
            "Errored",
            "failed",
            "Failed");
    /** NetBox's JobIntervalChoices: sync intervals in minutes. */
    static final ChoiceSet SYNC_INTERVALS = ChoiceSet.of(
                    "1",
                    "Minutely",
                    "60",
                    "Hourly",
                    "720",
                    "12 hours",
                    "1440",
                    "Daily",
                    "10080",
                    "Weekly",
                    "43200",
                    "30 days")
            .numeric();

    @Override
    public List<Model> models() {
        Model source = Model.of("core", "data-sources", "data source")
                .fields(
                        str("name").required().max(100).unique(),
                        choice("type", TYPE).required(),
                        str("source_url").required().max(200),
                        bool("enabled").dflt(true),
                        choice("status", STATUS).readOnly().dflt("new"),
                        str("description").max(200),
                        integer("sync_interval").nullable().integerChoices(SYNC_INTERVALS),
                        json("parameters").nullable(),
                        str("ignore_rules"),
                        str("comments"))
                .standardTail()
                .fields(
                        datetime("last_synced").readOnly().nullable(),
                        count("file_count", "core_datafile", "source_id"))
                .validator(DataSourceModels::sourceRules)
                .ordering("t.name")
                .search("t.name", "t.description", "t.comments", "t.source_url")
                .brief("name", "description");

        Model file = Model.of("core", "data-files", "data file")
                .fields(
                        fk("source", "core.datasource").readOnly().cascade(),
                        str("path").readOnly(),
                        datetime("last_updated").readOnly(),
                        integer("size").readOnly(),
                        str("hash").readOnly(),
                        datetime("created").readOnly())
                .readOnlyApi()
                .display(r -> r.str("path"))
                .relationFilter("source", "source", "name")
                .ordering("t.source_id", "t.path")
                .search("t.path")
                .briefExactly("path");

        Model job = Model.of("core", "jobs", "job")
                .fields(
                        genericFk("object", "object_type", "object_id", List.of("core.datasource", "extras.script"))
                                .readOnly()
                                .objectTypeIds(),
                        str("name").readOnly(),
                        choice("status", JOB_STATUS).readOnly(),
                        datetime("created").readOnly(),
                        datetime("scheduled").readOnly().nullable(),
                        integer("interval").readOnly().nullable(),
                        datetime("started").readOnly().nullable(),
                        datetime("completed").readOnly().nullable(),
                        fk("user", "users.user").readOnly(),
                        json("data").readOnly().nullable(),
                        str("error").readOnly(),
                        str("job_id").readOnly().filterExpression("t.job_id::text"),
                        str("queue_name").readOnly().help("Name of the queue in which this job was enqueued"),
                        choice("notifications", JOB_NOTIFICATIONS).readOnly(),
                        json("log_entries").readOnly())
                .readOnlyApi()
                // NetBox 4.6's JobFilterSet: user by username, user_id by id
                .relationFilter("user", "user", "username")
                .filters(List.of(
                        ExtraFilters.each("created__after", Kind.DATETIME, "{t}.created >= ?"),
                        ExtraFilters.each("created__before", Kind.DATETIME, "{t}.created <= ?"),
                        ExtraFilters.each("scheduled__after", Kind.DATETIME, "{t}.scheduled >= ?"),
                        ExtraFilters.each("scheduled__before", Kind.DATETIME, "{t}.scheduled <= ?"),
                        ExtraFilters.each("started__after", Kind.DATETIME, "{t}.started >= ?"),
                        ExtraFilters.each("started__before", Kind.DATETIME, "{t}.started <= ?"),
                        ExtraFilters.each("completed__after", Kind.DATETIME, "{t}.completed >= ?"),
                        ExtraFilters.each("completed__before", Kind.DATETIME, "{t}.completed <= ?")))
                .display(r -> r.str("name") + " (" + r.str("job_id") + ")")
                .ordering("t.created desc", "t.id desc")
                .search("t.name", "t.error")
                .brief("status", "created", "completed", "user");
        return List.of(source, file, job);
    }

    /** NetBox's DataSource.clean(): a local source names a path or a file:// URL. */
    private static void sourceRules(Row row, Map<String, List<String>> errors) {
        String url = row.str("source_url");
        if ("local".equals(row.str("type")) && url != null && !url.isEmpty()) {
            String scheme;
            try {
                scheme = URI.create(url).getScheme();
            } catch (IllegalArgumentException e) {
                scheme = "invalid";
            }
            if (scheme != null && !scheme.equals("file")) {
                errors.computeIfAbsent("source_url", k -> new ArrayList<>())
                        .add("URLs for local sources must start with file:// (or specify no scheme)");
            }
        }
    }
}
