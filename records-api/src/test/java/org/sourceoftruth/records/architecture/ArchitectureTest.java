package org.sourceoftruth.records.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.web.AnswersOptions;

/**
 * The package graph of records-api, held by a test so it stays what docs/architecture.md describes:
 * no package cycles (between top-level packages, and between the engine's parts: query,
 * render, write, store, custom fields), the engine never reaches up into the HTTP resources
 * (api) above it, and the engine and the layers under it never reach up into the applications
 * (dcim, ipam, ...) that are declared on top of them.
 */
class ArchitectureTest {
    private static final String ROOT = "org.sourceoftruth.records";
    /** The generic engine and what it stands on. */
    private static final String[] ENGINE = {
        ROOT + ".api..",
        ROOT + ".graphql..",
        ROOT + ".engine..",
        ROOT + ".fieldtype..",
        ROOT + ".model..",
        ROOT + ".db..",
        ROOT + ".web..",
        ROOT + ".net..",
        ROOT + ".auth..",
        ROOT + ".changelog.."
    };
    /** NetBox's applications, declared on the engine. */
    private static final String[] APPS = {
        ROOT + ".dcim..",
        ROOT + ".ipam..",
        ROOT + ".circuits..",
        ROOT + ".tenancy..",
        ROOT + ".virtualization..",
        ROOT + ".extras..",
        ROOT + ".users..",
        ROOT + ".core..",
        ROOT + ".vpn..",
        ROOT + ".wireless.."
    };

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
    }

    /** Asserts the rule holds over the main classes (and that there are classes to judge). */
    private static void assertHolds(ArchRule rule) {
        assertTrue(classes.size() > 100, "records-api's main classes were imported (" + classes.size() + ")");
        EvaluationResult result = rule.evaluate(classes);
        assertFalse(result.hasViolation(), () -> result.getFailureReport().toString());
    }

    @Test
    void packagesAreFreeOfCycles() {
        assertHolds(slices().matching(ROOT + ".(*)..").should().beFreeOfCycles());
    }

    @Test
    void theEnginesPartsAreFreeOfCycles() {
        assertHolds(slices().matching(ROOT + ".engine.(*)..").should().beFreeOfCycles());
    }

    @Test
    void theEngineDoesNotDependOnTheHttpResources() {
        assertHolds(noClasses()
                .that()
                .resideInAnyPackage(ROOT + ".engine..", ROOT + ".fieldtype..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(ROOT + ".api..", ROOT + ".graphql.."));
    }

    @Test
    void theEngineDoesNotDependOnTheApplications() {
        assertHolds(noClasses()
                .that()
                .resideInAnyPackage(ENGINE)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(APPS));
    }

    @Test
    void webAndStorageLayersDoNotDependOnTheEngine() {
        assertHolds(noClasses()
                .that()
                .resideInAnyPackage(ROOT + ".db..", ROOT + ".web..", ROOT + ".net..", ROOT + ".model..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        ROOT + ".api..",
                        ROOT + ".graphql..",
                        ROOT + ".engine..",
                        ROOT + ".fieldtype..",
                        ROOT + ".auth..",
                        ROOT + ".changelog.."));
    }

    /** The web interface is the top layer: it stands on the engine, and nothing stands on it. */
    @Test
    void nothingDependsOnTheWebInterface() {
        assertHolds(noClasses()
                .that()
                .resideOutsideOfPackage(ROOT + ".ui..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage(ROOT + ".ui.."));
    }

    /** Its pages are generated from the registry: no application's classes are reached. */
    @Test
    void theWebInterfaceDoesNotDependOnTheApplications() {
        assertHolds(noClasses()
                .that()
                .resideInAPackage(ROOT + ".ui..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(APPS));
    }

    /**
     * Every JAX-RS resource answers OPTIONS itself (see {@link AnswersOptions}): RESTEasy's own
     * answer for a class without an {@code @OPTIONS} method is 200 on any path below the class.
     */
    @Test
    void everyResourceAnswersOptionsOnItsOwnPaths() {
        assertHolds(classes()
                .that()
                .areAnnotatedWith(jakarta.ws.rs.Path.class)
                .and()
                .doNotHaveModifier(JavaModifier.ABSTRACT)
                .should(new ArchCondition<JavaClass>("implement AnswersOptions or declare @OPTIONS methods") {
                    @Override
                    public void check(JavaClass resource, ConditionEvents events) {
                        boolean answers = resource.isAssignableTo(AnswersOptions.class)
                                || resource.getAllMethods().stream()
                                        .anyMatch(m -> m.isAnnotatedWith(jakarta.ws.rs.OPTIONS.class));
                        events.add(new SimpleConditionEvent(
                                resource, answers, resource.getName() + " leaves OPTIONS to RESTEasy"));
                    }
                }));
    }

    /**
     * Tables another package names as text today: references from an application up to one
     * above it (dcim's interfaces to VLANs and wireless links, extras' config contexts to sites
     * and platforms), which a holder reference would turn into a package cycle. They belong in
     * the owning application (a {@code ModelMixin} or a hook declared there), or name the model
     * and let the registry give the table (as {@code Fields.countOf} does for counts); this list
     * only shrinks: a pair no longer found fails the test too.
     */
    private static final Set<String> STILL_AS_TEXT = Set.of(
            "dcim -> circuits_circuit",
            "dcim -> circuits_circuittermination",
            "dcim -> circuits_virtualcircuit",
            "dcim -> circuits_virtualcircuittermination",
            "dcim -> ipam_ipaddress",
            "dcim -> ipam_vlan",
            "dcim -> virtualization_virtualmachine",
            "dcim -> virtualization_vminterface",
            "dcim -> vpn_l2vpn",
            "dcim -> vpn_l2vpntermination",
            "dcim -> wireless_wirelesslink",
            "extras -> core_datafile",
            "extras -> core_job",
            "extras -> dcim_device",
            "extras -> dcim_devicerole",
            "extras -> dcim_devicetype",
            "extras -> dcim_location",
            "extras -> dcim_platform",
            "extras -> dcim_region",
            "extras -> dcim_site",
            "extras -> dcim_sitegroup",
            "extras -> tenancy_tenant",
            "extras -> tenancy_tenantgroup",
            "extras -> virtualization_cluster",
            "extras -> virtualization_clustergroup",
            "extras -> virtualization_clustertype",
            "extras -> virtualization_virtualmachine",
            "ipam -> vpn_l2vpn",
            "ipam -> vpn_l2vpn_export_targets",
            "ipam -> vpn_l2vpn_import_targets",
            "virtualization -> ipam_ipaddress");

    /**
     * Table names in SQL come from their owner (see {@link TableReferences}): a package names
     * another package's table through the owner's {@code *Tables} holder, a dependency ArchUnit
     * sees and the rules above judge, never as text the package graph does not show.
     */
    @Test
    void tablesAreNamedThroughTheirOwner() {
        Map<String, String> owners = TableReferences.owners(classes, TableReferences.declaredTables(classes));
        assertTrue(owners.size() > 150, "the declared tables were found (" + owners.size() + ")");
        List<TableReferences.Violation> found = TableReferences.violations(classes, owners);
        assertEquals(
                List.of(),
                found.stream().filter(v -> !STILL_AS_TEXT.contains(v.pair())).toList(),
                "tables named as text outside their owning package");
        Set<String> stillFound = new TreeSet<>();
        found.forEach(v -> stillFound.add(v.pair()));
        assertEquals(
                new TreeSet<>(STILL_AS_TEXT), stillFound, "STILL_AS_TEXT lists pairs no longer found: remove them");
    }

    /** The table rule fails on a class naming another package's table as text, not on one using the holder. */
    @Test
    void theTableRuleCatchesATableNamedAsText() throws ClassNotFoundException {
        Map<String, String> owners = TableReferences.owners(classes, TableReferences.declaredTables(classes));
        JavaClasses fixtures = new ClassFileImporter()
                .importClasses(
                        Class.forName(ROOT + ".ipam.TableReferenceFixture$AsText"),
                        Class.forName(ROOT + ".ipam.TableReferenceFixture$ThroughOwner"));
        List<String> found = TableReferences.violations(fixtures, owners).stream()
                .map(Object::toString)
                .toList();
        assertEquals(List.of(ROOT + ".ipam.TableReferenceFixture$AsText (ipam) names dcim_site, owned by dcim"), found);
    }
}
